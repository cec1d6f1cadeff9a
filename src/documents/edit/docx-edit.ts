/**
 * Editing a DOCX: fills its content controls (w:sdt: text, check boxes, drop-downs, dates)
 * and the placeholders written in its text ("{{name}}", "[Name]", "«Name»", "Name: ____",
 * "☐ Married") by rewriting word/document.xml in the zip. Text split across runs is handled
 * at the paragraph level: a placeholder's text is replaced in the first run it starts in and
 * removed from the runs it spans.
 */
import JSZip from 'jszip';
import { CorruptDocumentError, UnsupportedDocumentError } from '../readers/document.errors.js';
import type { EditRequest, FilledField, FormField } from './edit.types.js';
import { type Decision, type EditPlan, planEdits } from './edit-plan.js';
import type { FieldScorer } from './field-matching.js';

const DOCUMENT_PART = 'word/document.xml';

interface DocxField extends FormField {
  /** Where it is: a content control (its index) or a span of a paragraph's text. */
  at: { sdt: number } | { paragraph: number; start: number; end: number; glyph?: boolean };
}

function decode(text: string): string {
  return text
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&quot;/gu, '"')
    .replace(/&apos;/gu, "'")
    .replace(/&amp;/gu, '&');
}

function encode(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

const TEXT_RUN = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:t\s*\/>/gu;

function textOf(xml: string): string {
  return [...xml.matchAll(TEXT_RUN)].map((m) => decode(m[1] ?? '')).join('');
}

function attr(xml: string, element: string, name: string): string | undefined {
  const m = new RegExp(`<${element}\\b[^>]*\\b${name}="([^"]*)"`, 'u').exec(xml);
  return m ? decode(m[1]) : undefined;
}

/** Top-level `<tag>…</tag>` spans (nesting counted), as [start, end) offsets. */
function spans(xml: string, tag: string): [number, number][] {
  const open = new RegExp(`<${tag}(?=[\\s>/])[^>]*?(/?)>|</${tag}>`, 'gu');
  const out: [number, number][] = [];
  let depth = 0;
  let start = 0;
  for (const m of xml.matchAll(open)) {
    if (m[0].startsWith('</')) {
      depth--;
      if (depth === 0) out.push([start, m.index + m[0].length]);
    } else if (m[1] !== '/') {
      if (depth === 0) start = m.index;
      depth++;
    }
  }
  return out;
}

const PLACEHOLDER =
  /\{\{\s*([^{}]{1,80}?)\s*\}\}|\[([^\][]{1,60})\]|«([^«»]{1,60})»|<<([^<>]{1,60})>>|_{3,}|\.{5,}|[☐□]/gu;

function readFields(xml: string): {
  sdts: [number, number][];
  paragraphs: [number, number][];
  fields: DocxField[];
} {
  const fields: DocxField[] = [];
  const sdts = spans(xml, 'w:sdt');
  sdts.forEach(([s, e], i) => {
    const sdt = xml.slice(s, e);
    const properties = /<w:sdtPr>([\s\S]*?)<\/w:sdtPr>/u.exec(sdt)?.[1] ?? '';
    const content = /<w:sdtContent>([\s\S]*)<\/w:sdtContent>/u.exec(sdt)?.[1] ?? '';
    const labels = [
      attr(properties, 'w:alias', 'w:val'),
      attr(properties, 'w:tag', 'w:val'),
      textOf(content),
    ].filter((t): t is string => !!t && t.trim() !== '');
    const before = textOf(xml.slice(Math.max(0, s - 600), s))
      .split(/[\n]/u)
      .pop()
      ?.trim();
    if (before) labels.push(before.replace(/[:\s]+$/u, ''));
    const checkbox = /<w14:checkbox>/u.test(properties);
    const items = [...properties.matchAll(/<w:listItem\b[^>]*>/gu)].map((m) => ({
      value: attr(m[0], 'w:listItem', 'w:displayText') ?? attr(m[0], 'w:listItem', 'w:value') ?? '',
      labels: [attr(m[0], 'w:listItem', 'w:displayText') ?? ''].filter(Boolean),
    }));
    const dateFormat = attr(properties, 'w:dateFormat', 'w:val');
    fields.push({
      id: `sdt-${i}`,
      kind: checkbox ? 'checkbox' : items.length > 0 ? 'choice' : 'text',
      name:
        attr(properties, 'w:tag', 'w:val') ??
        attr(properties, 'w:alias', 'w:val') ??
        `control ${i + 1}`,
      labels: [...new Set(labels)],
      options: items.length > 0 ? items : undefined,
      format: dateFormat
        ? { date: dateFormat.toLowerCase().replace(/\bd\b/u, 'dd').replace(/\bm\b/u, 'mm') }
        : undefined,
      order: s,
      fill: !/<w:lock w:val="(?:sdtContentLocked|contentLocked)"/u.test(properties),
      at: { sdt: i },
    });
  });
  const inSdt = (offset: number) => sdts.some(([s, e]) => offset >= s && offset < e);
  const paragraphs = spans(xml, 'w:p').filter(([s]) => !inSdt(s));
  paragraphs.forEach(([s, e], p) => {
    const text = textOf(xml.slice(s, e));
    let last = 0;
    for (const m of text.matchAll(PLACEHOLDER)) {
      const inner = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim();
      const glyph = m[0] === '☐' || m[0] === '□';
      const before = text
        .slice(last, m.index)
        .replace(/[:\s]+$/u, '')
        .trim();
      const after = text
        .slice(m.index + m[0].length)
        .split(/[☐□_]|\s{3,}/u)[0]
        .trim();
      const labels = [inner, glyph ? after : before].filter((t) => t !== '');
      if (labels.length === 0) continue;
      fields.push({
        id: `p${p}-${m.index}`,
        kind: glyph ? 'checkbox' : 'text',
        name: inner || labels[0],
        labels,
        order: s + m.index,
        fill: true,
        at: { paragraph: p, start: m.index, end: m.index + m[0].length, glyph },
      });
      last = m.index + m[0].length;
    }
  });
  fields.sort((a, b) => a.order - b.order);
  return { sdts, paragraphs, fields };
}

/** A paragraph's XML with text spans [start, end) of its concatenated text replaced. */
function replaceInParagraph(
  paragraph: string,
  edits: { start: number; end: number; text: string }[],
): string {
  const runs = [...paragraph.matchAll(TEXT_RUN)].map((m) => ({
    index: m.index,
    length: m[0].length,
    text: decode(m[1] ?? ''),
  }));
  let offset = 0;
  const placed = runs.map((r) => {
    const from = offset;
    offset += r.text.length;
    return { ...r, from, to: offset, out: r.text };
  });
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    placed.forEach((r, i) => {
      if (r.to <= edit.start || r.from >= edit.end) return;
      const head = edit.start > r.from ? r.out.slice(0, edit.start - r.from) : '';
      const tail = edit.end < r.to ? r.out.slice(r.out.length - (r.to - edit.end)) : '';
      const first = placed.findIndex((q) => q.to > edit.start);
      r.out = head + (i === first ? edit.text : '') + tail;
    });
  }
  let out = '';
  let cursor = 0;
  for (const r of placed) {
    out += paragraph.slice(cursor, r.index) + `<w:t xml:space="preserve">${encode(r.out)}</w:t>`;
    cursor = r.index + r.length;
  }
  return out + paragraph.slice(cursor);
}

function shownValue(decision: Decision): string {
  const { write } = decision;
  if (write.kind === 'text') return write.text;
  if (write.kind === 'check') return write.on ? 'checked' : 'unchecked';
  return write.option.value;
}

function fillSdt(sdt: string, decision: Decision): string {
  const { write } = decision;
  let out = sdt.replace(/<w:showingPlcHdr\s*\/>/u, '');
  if (write.kind === 'check') {
    out = out.replace(
      /<w14:checked w14:val="[^"]*"\s*\/>/u,
      `<w14:checked w14:val="${write.on ? 1 : 0}"/>`,
    );
    return out.replace(/[☐☒□■]/u, write.on ? '☒' : '☐');
  }
  const value = shownValue(decision);
  const content = /<w:sdtContent>([\s\S]*)<\/w:sdtContent>/u.exec(out);
  if (!content) return out;
  let first = true;
  let body = content[1].replace(TEXT_RUN, () => {
    const text = first ? value : '';
    first = false;
    return `<w:t xml:space="preserve">${encode(text)}</w:t>`;
  });
  if (first)
    body = body.replace(/<\/w:r>/u, `<w:t xml:space="preserve">${encode(value)}</w:t></w:r>`);
  return out.replace(content[1], () => body);
}

interface DocxEditResult {
  bytes: Uint8Array;
  plan: EditPlan;
  filled: FilledField[];
}

export async function editDocx(
  bytes: Uint8Array,
  request: EditRequest,
  scorer: FieldScorer,
): Promise<DocxEditResult> {
  if (request.form_schema && request.form_schema.length > 0) {
    throw new UnsupportedDocumentError(
      'form_schema applies to PDFs only; a DOCX is filled through its content controls and placeholders',
    );
  }
  let zip: JSZip;
  let xml: string;
  try {
    zip = await JSZip.loadAsync(bytes);
    const part = zip.file(DOCUMENT_PART);
    if (!part) throw new Error(`${DOCUMENT_PART} is missing`);
    xml = await part.async('string');
  } catch (error) {
    throw new CorruptDocumentError(
      'docx',
      `The DOCX cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const { sdts, paragraphs, fields } = readFields(xml);
  if (fields.length === 0) {
    throw new UnsupportedDocumentError(
      'The DOCX has no content controls or placeholders ({{name}}, [Name], "Name: ____") to fill',
    );
  }
  const plan = planEdits(request.edit_instructions, fields, scorer);
  const replacements: { start: number; end: number; xml: string }[] = [];
  const byParagraph = new Map<number, { start: number; end: number; text: string }[]>();
  for (const decision of plan.decisions) {
    const at = decision.field.at;
    if ('sdt' in at) {
      const [s, e] = sdts[at.sdt];
      replacements.push({ start: s, end: e, xml: fillSdt(xml.slice(s, e), decision) });
    } else {
      const text =
        decision.write.kind === 'check' ? (decision.write.on ? '☒' : '☐') : shownValue(decision);
      byParagraph.set(at.paragraph, [
        ...(byParagraph.get(at.paragraph) ?? []),
        { start: at.start, end: at.end, text },
      ]);
    }
  }
  for (const [p, edits] of byParagraph) {
    const [s, e] = paragraphs[p];
    replacements.push({ start: s, end: e, xml: replaceInParagraph(xml.slice(s, e), edits) });
  }
  let edited = xml;
  for (const r of replacements.sort((a, b) => b.start - a.start))
    edited = edited.slice(0, r.start) + r.xml + edited.slice(r.end);
  zip.file(DOCUMENT_PART, edited);
  const out = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  const filled = plan.decisions.map((d) => ({
    field: d.field.name,
    description: d.field.labels[0] ?? d.field.name,
    value: shownValue(d),
    instruction: d.item?.text ?? null,
    confidence: d.confidence,
    page: null,
  }));
  return { bytes: out, plan, filled };
}
