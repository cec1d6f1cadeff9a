"""Replays statements recorded from the ClickHouse usage store on chDB (a current engine).

Input (argv[1]): a JSON list of {"statement", "sessionId"?, "data"?} in the order sent.
Output (stdout): a JSON list, one entry per statement: {"ok": true, "rows": [...]} for
statements that return rows, {"ok": true} otherwise, or {"ok": false, "error": "..."}.
The server gives each write its own session (temporary tables); chDB runs one session, so
the temporary tables of the previous write session are dropped when another one begins.
"""
import json
import re
import sys

from chdb import session

TEMPORARY = re.compile(r"^\s*CREATE\s+TEMPORARY\s+TABLE\s+(\w+)", re.IGNORECASE)

def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        recorded = json.load(f)
    s = session.Session()
    results = []
    current_session = None
    temporary: list[str] = []
    for entry in recorded:
        statement = entry["statement"]
        sid = entry.get("sessionId")
        if sid is not None and sid != current_session:
            for table in temporary:
                s.query(f"DROP TEMPORARY TABLE IF EXISTS {table}")
            temporary = []
            current_session = sid
        match = TEMPORARY.match(statement)
        if match:
            temporary.append(match.group(1))
        text = statement if entry.get("data") is None else f"{statement}\n{entry['data']}"
        returns_rows = statement.lstrip().upper().startswith("SELECT")
        try:
            if returns_rows:
                out = s.query(text, "JSONEachRow")
                body = out.bytes().decode("utf-8") if hasattr(out, "bytes") else str(out)
                rows = [json.loads(line) for line in body.splitlines() if line.strip()]
                results.append({"ok": True, "rows": rows})
            else:
                s.query(text)
                results.append({"ok": True})
        except Exception as error:  # a statement the current engine refuses
            results.append({"ok": False, "error": str(error)[:500]})
    json.dump(results, sys.stdout)

main()
