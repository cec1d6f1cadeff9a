import type { ExtractEngine } from '../versions/engines.js';

/** What an extract engine does; versions differ by the engine their row names. */
export interface ExtractProfile {
  /** How a document label is compared with a property's labels. */
  labelMatch: 'exact' | 'normalized' | 'fuzzy';
  /** Also try the schema's `title`. */
  useTitle: boolean;
  /** Also try the leading words of the schema's `description`. */
  useDescription: boolean;
  synonyms: boolean;
  /** A label alone on its line takes the next line as its value. */
  nextLineValues: boolean;
  /** Values may run over several lines (addresses). */
  multiLine: boolean;
  /** "Label value" on one line without a colon or column gap. */
  inlineLabels: boolean;
  tables: 'none' | 'exact' | 'fuzzy';
  /** Tables continuing on the next page (same columns, no header) are joined. */
  tablesAcrossPages: boolean;
  /** Dates normalized to yyyy-mm-dd; otherwise returned as written. */
  isoDates: boolean;
  lenientBooleans: boolean;
}

/** The first engine; each later one is written as what it changed from the one before. */
const LABEL_EXACT: ExtractProfile = {
  labelMatch: 'exact',
  useTitle: false,
  useDescription: false,
  synonyms: false,
  nextLineValues: false,
  multiLine: false,
  inlineLabels: false,
  tables: 'none',
  tablesAcrossPages: false,
  isoDates: false,
  lenientBooleans: false,
};

const LABEL_NORMALIZED: ExtractProfile = {
  ...LABEL_EXACT,
  labelMatch: 'normalized',
  useTitle: true,
  nextLineValues: true,
  tables: 'exact',
};

const LABEL_TYPED: ExtractProfile = {
  ...LABEL_NORMALIZED,
  isoDates: true,
  lenientBooleans: true,
};

export const EXTRACT_PROFILES: Record<ExtractEngine, ExtractProfile> = {
  'label-exact': LABEL_EXACT,
  'label-normalized': LABEL_NORMALIZED,
  'label-typed': LABEL_TYPED,
};
