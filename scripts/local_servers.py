"""Helpers for the scripts that start a local server for a while (mlx-agreement.py,
three-runtimes.py): a free port on 127.0.0.1, and waiting until the server answers."""

import socket
import subprocess
import time
import urllib.request


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now (the system's pick, released at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, process, seconds=180):
    """True once `url` answers 200; False when `process` ends first or `seconds` pass."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.3)
    return False


def stop(process):
    """Ends `process`: SIGTERM, then SIGKILL after 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
