#!/usr/bin/env bash
# Links the python3 the tests start (bots, schema checks: about 550 starts in `make test`)
# as .build/test-python/python3, which `make test` puts first on the tests' PATH; nothing
# else on the PATH changes. Debian's /usr/bin/python3 when it has jsonschema (setup.sh
# installs python3-jsonschema for it): it starts in about 40 ms, where a pyenv interpreter
# with site hooks took 90-115 ms on the 2-core CI machine. Otherwise the PATH's python3,
# resolved past any shim (pyenv's shim runs bash and pyenv at every start). Prints the
# interpreter it chose.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1; then
  python=/usr/bin/python3
else
  python=$(python3 -c 'import sys; print(sys.executable)')
fi
mkdir -p .build/test-python
ln -sfn "$python" .build/test-python/python3
echo "tests run $python ($("$python" --version 2>&1))"
