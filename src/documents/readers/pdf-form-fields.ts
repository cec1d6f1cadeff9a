/**
 * The values of a PDF's filled form fields. pdf.js keeps them out of a page's text content
 * (they are annotations drawn over the page, not page text), so a filled application form
 * would read as its labels alone: each field's value is read here with where it is drawn.
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';

/** A field's value as a line of text, in top-left page coordinates (points, as displayed). */
export interface FormFieldText {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** Font size of the value (points). */
  size: number;
}

/** What pdf.js reports of a widget annotation (the fields read here). */
interface WidgetData {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  exportValue?: string;
  buttonValue?: string;
  checkBox?: boolean;
  radioButton?: boolean;
  hidden?: boolean;
  rect?: number[];
  defaultAppearanceData?: { fontSize?: number };
}

/** A ticked box and an empty one as documents print them (and extract reads them). */
const CHECKED = '☒';
const UNCHECKED = '☐';
/** An auto-sized field's text fills about this share of its box's height. */
const AUTO_SIZE_SHARE = 0.7;
/** Average width of a character as a share of the font size (for the value's own width). */
const CHARACTER_WIDTH = 0.5;

/** The text a widget shows: a text field's value, a choice's, or a box ticked or not. */
function shownText(widget: WidgetData): string | undefined {
  const value = widget.fieldValue;
  if (widget.fieldType === 'Tx') return typeof value === 'string' ? value : undefined;
  if (widget.fieldType === 'Ch') {
    const chosen = Array.isArray(value) ? value : [value];
    const text = chosen.filter((v) => typeof v === 'string' && v !== '').join(', ');
    return text === '' ? undefined : text;
  }
  if (widget.fieldType === 'Btn' && (widget.checkBox || widget.radioButton)) {
    const on = widget.radioButton ? widget.buttonValue : (widget.exportValue ?? value);
    const checked = typeof value === 'string' && value !== 'Off' && value === on;
    return checked ? CHECKED : UNCHECKED;
  }
  return undefined;
}

/** Every visible filled field of `page`, one entry per line of its value. */
export async function formFieldTexts(page: PDFPageProxy): Promise<FormFieldText[]> {
  const viewport = page.getViewport({ scale: 1 });
  const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetData[];
  const found: FormFieldText[] = [];
  for (const widget of annotations) {
    if (widget.subtype !== 'Widget' || widget.hidden || !widget.rect) continue;
    const text = shownText(widget)?.trim();
    if (!text) continue;
    const [x1, y1, x2, y2] = viewport.convertToViewportRectangle(widget.rect) as number[];
    const left = Math.min(x1, x2);
    const top = Math.min(y1, y2);
    const width = Math.abs(x2 - x1);
    const height = Math.abs(y2 - y1);
    const lines = text.split(/\r\n?|\n/).filter((line) => line.trim() !== '');
    const fontSize = widget.defaultAppearanceData?.fontSize ?? 0;
    // Size 0 is "auto" in a PDF form: the value is fitted to the box.
    const size = Math.min(
      height / lines.length,
      fontSize > 0 ? fontSize : height * AUTO_SIZE_SHARE,
    );
    lines.forEach((line, index) => {
      found.push({
        text: line.trim(),
        left,
        top: lines.length === 1 ? top + (height - size) / 2 : top + index * size,
        width: Math.min(width, line.trim().length * CHARACTER_WIDTH * size),
        height: size,
        size,
      });
    });
  }
  return found;
}
