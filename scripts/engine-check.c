// The engine check set-up runs before it says done: the llama.cpp it built, on this CPU, takes
// the paths a ChatEval run takes — load a model, a prefill of at least 64 tokens in one batch
// (the matrix-multiplication kernels, AMX among them where the CPU has it), then a few
// one-token decode steps (the vector kernels) with greedy sampling. Anything the engine cannot
// do here shows now, as this program's exit status or signal, not as a crash in a later run.
//
// Usage: engine-check MODEL.gguf [PROMPT_TOKENS [DECODE_STEPS]]
// Prints each step before it starts (flushed), so a log cut short by a signal says where.
// Exit: 0 the engine ran; 1 a llama.cpp call failed; 2 usage; death by a signal: the engine crashed.
#include <llama.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void step(const char *text) {
    fprintf(stdout, "%s\n", text);
    fflush(stdout);
}

static int fail(const char *call) {
    fprintf(stdout, "error: %s failed\n", call);
    fflush(stdout);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL.gguf [PROMPT_TOKENS [DECODE_STEPS]]\n", argv[0]);
        return 2;
    }
    const int want_prompt = argc > 2 ? atoi(argv[2]) : 72;
    const int decode_steps = argc > 3 ? atoi(argv[3]) : 4;
    if (want_prompt < 1 || want_prompt > 400 || decode_steps < 0 || decode_steps > 64) {
        fprintf(stderr, "PROMPT_TOKENS must be 1-400 and DECODE_STEPS 0-64\n");
        return 2;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const int threads = cores > 0 ? (int)cores : 1;

    step("backend: llama_backend_init");
    llama_backend_init();

    step("model: llama_model_load_from_file");
    struct llama_model_params model_params = llama_model_default_params();
    model_params.n_gpu_layers = 0;
    struct llama_model *model = llama_model_load_from_file(argv[1], model_params);
    if (!model) return fail("llama_model_load_from_file");
    const struct llama_vocab *vocab = llama_model_get_vocab(model);

    struct llama_context_params context_params = llama_context_default_params();
    context_params.n_ctx = 512;
    context_params.n_batch = 512;
    context_params.n_ubatch = 512;
    context_params.n_threads = threads;
    context_params.n_threads_batch = threads;
    context_params.no_perf = true;
    step("context: llama_init_from_model");
    struct llama_context *context = llama_init_from_model(model, context_params);
    if (!context) return fail("llama_init_from_model");

    // A prompt of at least `want_prompt` tokens: a sentence repeated (about 11 tokens each), cut to size.
    const char *sentence = "The quick brown fox jumps over the lazy dog near the river bank. ";
    size_t repeats = (size_t)want_prompt / 4 + 2;
    size_t length = strlen(sentence) * repeats + 1;
    char *text = malloc(length);
    llama_token *tokens = malloc(sizeof(llama_token) * length);
    if (!text || !tokens) return fail("malloc");
    text[0] = 0;
    for (size_t i = 0; i < repeats; i++) strcat(text, sentence);
    int count = llama_tokenize(vocab, text, (int32_t)strlen(text), tokens, (int32_t)length, true, false);
    if (count < want_prompt) return fail("llama_tokenize");
    count = want_prompt;

    char line[160];
    snprintf(line, sizeof line, "prefill: llama_decode of %d tokens in one batch, %d threads", count, threads);
    step(line);
    double start = now_ms();
    if (llama_decode(context, llama_batch_get_one(tokens, count)) != 0) return fail("llama_decode (prefill)");
    llama_synchronize(context);
    double prefill_ms = now_ms() - start;

    struct llama_sampler *sampler = llama_sampler_chain_init(llama_sampler_chain_default_params());
    llama_sampler_chain_add(sampler, llama_sampler_init_greedy());
    snprintf(line, sizeof line, "decode: %d steps of one token, greedy", decode_steps);
    step(line);
    start = now_ms();
    for (int i = 0; i < decode_steps; i++) {
        llama_token next = llama_sampler_sample(sampler, context, -1);
        if (llama_decode(context, llama_batch_get_one(&next, 1)) != 0) return fail("llama_decode (one token)");
    }
    llama_synchronize(context);
    double decode_ms = now_ms() - start;

    printf("ok: prefill of %d tokens in %.1f ms (%.0f t/s), %d decode steps in %.1f ms\n", count, prefill_ms,
           count / (prefill_ms / 1e3), decode_steps, decode_ms);
    llama_sampler_free(sampler);
    llama_free(context);
    llama_model_free(model);
    llama_backend_free();
    free(tokens);
    free(text);
    return 0;
}
