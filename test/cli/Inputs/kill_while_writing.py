"""kill_while_writing.py SIGNAL TOOL ARGS...: runs the tool, waits until it
says its outputs are staged, sends SIGNAL, and fails unless the tool died of
it. (Python, not sh: a shell's background job ignores SIGINT.)"""
import signal
import subprocess
import sys
import time

sig = getattr(signal, "SIG" + sys.argv[1])
# lit's workers ignore SIGINT, and an ignored signal stays ignored in children.
tool = subprocess.Popen(sys.argv[2:], stderr=subprocess.PIPE, text=True,
                        preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                         signal.SIG_DFL))
deadline = time.time() + 60
line = tool.stderr.readline()
while "outputs staged" not in line:
    if not line or time.time() > deadline:
        tool.kill()
        sys.exit("the tool never paused: " + line + tool.stderr.read())
    line = tool.stderr.readline()
tool.send_signal(sig)
status = tool.wait()
if status != -sig:
    sys.exit("exit %d: not killed by %s" % (status, sys.argv[1]))
