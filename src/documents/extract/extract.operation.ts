import type { LayoutDocument } from '../parse/layout.types.js';
import type { DeepExtractEngine, ExtractEngine } from '../versions/engines.js';
import type { Citation } from './citation.js';
import { EXTRACT_PROFILES } from './extract.engines.js';
import { countFields, type JsonSchema } from './extract-schema.js';
import { collectEvidence as collectLegacy } from './document-evidence.js';
import { LegacyFinder, type LegacyFound } from './legacy-finder.js';
import { readableDocument } from './readable-text.js';
import { schemaExtract, type Found } from './schema-extract.js';
import type { LabelSimilarity } from './label-similarity.js';

interface ExtractOptions {
  engine: ExtractEngine;
  /** Set when `settings.deep_extract` is true: a second, more thorough pass. */
  deepEngine?: DeepExtractEngine;
  citations: boolean;
  /** `settings.array_extract`: arrays gather the rows of every matching table. */
  arrayExtract?: boolean;
  /** Scores labels against fields; the lexical multilingual scorer when not given. */
  similarity?: LabelSimilarity;
}

interface ExtractResult {
  /** The values, shaped like the schema; leaves are `{value, citations, confidence}` with citations on. */
  result: Record<string, unknown>;
  numFields: number;
}

/** Engines of the first extract versions, answered by their own label matcher. */
const LEGACY_ENGINES = new Set<ExtractEngine>(['label-exact', 'label-normalized']);

/** At or above this extract confidence a value is reported `high`. */
const HIGH_EXTRACT_CONFIDENCE = 0.6;

type AnyFound = Found | LegacyFound;

function level(confidence: number): 'high' | 'low' {
  return confidence >= HIGH_EXTRACT_CONFIDENCE ? 'high' : 'low';
}

/** Citations quote the document as printed; `printed` gives back what reading changed. */
interface Rendering {
  citations: boolean;
  printed(text: string): string;
}

function renderLeaf(
  leaf: { value: unknown; citations: Citation[]; confidence?: number; ambiguous?: boolean },
  { citations, printed }: Rendering,
): unknown {
  if (!citations) return leaf.value;
  const confidence = leaf.value === null ? 0 : (leaf.confidence ?? 1);
  const extract_confidence = Math.round(confidence * 100) / 100;
  return {
    value: leaf.value,
    citations: leaf.citations.map((c) => ({
      ...c,
      content: printed(c.content),
      confidence: level(confidence),
      granular_confidence: { extract_confidence },
    })),
    confidence: level(confidence),
    ...(leaf.ambiguous ? { ambiguous: true } : {}),
  };
}

function render(found: AnyFound, rendering: Rendering): unknown {
  switch (found.kind) {
    case 'leaf':
      return renderLeaf(found, rendering);
    case 'object':
      return Object.fromEntries(
        Object.entries(found.fields).map(([k, v]) => [k, render(v, rendering)]),
      );
    case 'rows':
      return found.rows.map((row) =>
        render({ kind: 'object', fields: row } as AnyFound, rendering),
      );
    case 'list':
      return found.items.map((item) => renderLeaf(item, rendering));
  }
}

/**
 * Extract over a loaded document: values for the schema's properties. The current engines
 * search every field by its name, description and type among the document's labels, table
 * headers and unlabelled evidence (see schema-extract.ts); with `deepEngine` the search
 * takes more candidates and checks values against each other. Pinned first versions
 * (label-exact, label-normalized) answer with their own matcher. Both read the document's
 * text as `readableDocument` gives it: digits of any script as ASCII, no bidi controls.
 */
export function extractDocument(
  document: LayoutDocument,
  schema: JsonSchema,
  options: ExtractOptions,
): ExtractResult {
  const { document: readable, printed } = readableDocument(document);
  const found: AnyFound =
    LEGACY_ENGINES.has(options.engine) && !options.deepEngine
      ? new LegacyFinder(collectLegacy(readable), EXTRACT_PROFILES[options.engine]).find('', schema)
      : schemaExtract(readable, schema, {
          deep: options.deepEngine !== undefined,
          arrayExtract: options.arrayExtract === true,
          similarity: options.similarity,
        });
  return {
    result: render(found, { citations: options.citations, printed }) as Record<string, unknown>,
    numFields: countFields(schema),
  };
}
