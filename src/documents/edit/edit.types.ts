import type { ModelVersionsReport } from '../versions/model-pins.js';

/** A box on a page as fractions of the page's width and height (0..1), origin top-left. */
interface WidgetBox {
  page: number;
  left: number;
  top: number;
  width: number;
  height: number;
  original_page?: number;
}

type WidgetType = 'text' | 'checkbox' | 'radio' | 'dropdown' | 'barcode';

/** One widget of `form_schema` (the reductoai SDK's EditWidget). */
export interface EditWidget {
  bbox: WidgetBox;
  description: string;
  type: WidgetType;
  fill?: boolean;
  font_size?: number | null;
  value?: string | null;
}

/** The edit request fields the engine reads (validated by the HTTP layer's DTO). */
export interface EditRequest {
  edit_instructions: string;
  form_schema?: EditWidget[] | null;
  edit_options?: {
    flatten?: boolean;
    font_size?: number | null;
    enable_overflow_pages?: boolean;
    color?: string;
  };
}

/** A choice of a radio group, a dropdown or a group of sibling checkboxes. */
export interface FieldOption {
  /** What is written to select it (export value, option text). */
  value: string;
  /** Texts that name it (its caption on the page, the export value). */
  labels: string[];
}

/** Date and number layouts a field shows (format action, or a hint such as MM/DD/YYYY). */
export interface FieldFormat {
  /** Tokens dd, mm, yyyy (or yy) with their separators, e.g. `mm/dd/yyyy`. */
  date?: string;
  /** Decimals of a number field. */
  decimals?: number;
}

type FieldKind = 'text' | 'checkbox' | 'choice';

/** A fillable place of a document, whatever the format: what instructions are matched to. */
export interface FormField {
  /** Unique within the document. */
  id: string;
  kind: FieldKind;
  /** The name the document gives it (AcroForm name, content-control tag, placeholder). */
  name: string;
  /** Texts that describe it, best first (tooltip, caption, nearby text, name). */
  labels: string[];
  options?: FieldOption[];
  format?: FieldFormat;
  maxLength?: number;
  /** 1-indexed page, when known. */
  page?: number;
  /** Where it sits on its page (PDF user space), when known. */
  rect?: { x: number; y: number; width: number; height: number };
  /** Reading order on the page (for ties between equally named fields). */
  order: number;
  /** A value given with the field (`form_schema` value): written as is. */
  preset?: string;
  /** False: left unfilled on purpose. */
  fill: boolean;
}

/** One instruction item: "name: Ada Lovelace" -> label "name", value "Ada Lovelace". */
export interface InstructionItem {
  /** 0-based position in the instructions. */
  index: number;
  text: string;
  label: string;
  /** null for a bare "tick X" (the label names what to tick). */
  value: string | null;
  /** "tick"/"untick" verbs; undefined for label-value items. */
  action?: 'check' | 'uncheck';
}

/** What one field received. */
export interface FilledField {
  field: string;
  description: string;
  value: string;
  instruction: string | null;
  confidence: number;
  page: number | null;
  /** False when the text was wider than its field (see enable_overflow_pages). */
  fits?: boolean;
  overflow_page?: number;
}

export interface EditReport {
  filled: FilledField[];
  unmatched_instructions: string[];
  unfilled_fields: { field: string; description: string; page: number | null }[];
}

export interface EditOutcome {
  document: { fileType: string; totalPages: number };
  /**
   * The edited document, base64 (an outcome also travels as JSON from Redis workers); the
   * API process stores it as the job's document file.
   */
  edited: { base64: string; extension: 'pdf' | 'docx'; contentType: string };
  result: { form_schema: EditWidget[] | null; report: EditReport };
  usage: { num_pages: number; num_fields: number };
  model_versions: ModelVersionsReport;
}
