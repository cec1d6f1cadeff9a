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

export const EXTRACT_PROFILES: Record<ExtractEngine, ExtractProfile> = {
  'label-exact': {
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
  },
  'label-normalized': {
    labelMatch: 'normalized',
    useTitle: true,
    useDescription: false,
    synonyms: false,
    nextLineValues: true,
    multiLine: false,
    inlineLabels: false,
    tables: 'exact',
    tablesAcrossPages: false,
    isoDates: false,
    lenientBooleans: false,
  },
  'label-typed': {
    labelMatch: 'normalized',
    useTitle: true,
    useDescription: false,
    synonyms: false,
    nextLineValues: true,
    multiLine: false,
    inlineLabels: false,
    tables: 'exact',
    tablesAcrossPages: false,
    isoDates: true,
    lenientBooleans: true,
  },
};
