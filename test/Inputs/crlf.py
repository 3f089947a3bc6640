"""Line endings for test/rewrite/crlf.cu.

  crlf.py to-crlf IN OUT     IN with every line break CRLF
  crlf.py to-lf IN OUT       IN with every line break LF
  crlf.py check-crlf FILE    fails naming the first line break that is not CRLF
"""
import sys


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main(argv):
    if argv[1] == "check-crlf":
        data = read(argv[2])
        for i, c in enumerate(data):
            if c == ord("\n") and (i == 0 or data[i - 1] != ord("\r")):
                line = data[:i].count(b"\n") + 1
                sys.exit("%s:%d: line break is LF, not CRLF" % (argv[2], line))
        if b"\n" not in data:
            sys.exit("%s: no line breaks" % argv[2])
        return
    data = read(argv[2]).replace(b"\r\n", b"\n")
    if argv[1] == "to-crlf":
        data = data.replace(b"\n", b"\r\n")
    with open(argv[3], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv)
