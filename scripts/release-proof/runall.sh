#!/bin/bash
HEAT_OLD=${HEAT_OLD:-/tmp/heat-old}; here=$(cd "$(dirname "$0")" && pwd); cd "$HEAT_OLD"; export STUBS=${STUBS:-oslo_db.sqlalchemy.migration,Crypto,Crypto.Cipher,Crypto.Cipher.AES,Crypto.Random,Crypto.Hash,Crypto.Hash.HMAC,retrying}
for t in "$@"; do
PYTHONPATH=$HEAT_OLD/src/$t:$HEAT_OLD/meta/$t STUBS=$STUBS timeout 600 venv/bin/python "$here/dump.py" > dumps/$t.json 2> dumps/$t.err
echo "$t rc=$? $(python3 -c "import json;d=json.load(open('dumps/$t.json'));print(d['heat_file'], len(d['types']), d['no_client'])" 2>&1 | tail -1)"
done
