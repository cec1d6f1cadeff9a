import type { OfficeBlock } from './office-blocks.js';
import {
  attribute,
  child,
  childrenNamed,
  descendants,
  numberAttribute,
  path,
  type XmlElement,
} from './office-xml.js';

/** Where a placeholder of a slide is drawn and how its text is listed, from its layout or master. */
export interface PlaceholderStyle {
  offset?: { x: number; y: number };
  /** Levels (0-8) whose paragraphs the layout or master draws without a bullet. */
  unbulleted: Set<number>;
  /** Levels whose paragraphs it draws with one. */
  bulleted: Set<number>;
}

/** The placeholders of a slide's layout and master, looked up by `idx`, then by type. */
export interface Placeholders {
  byIndex: Map<string, PlaceholderStyle>;
  byType: Map<string, PlaceholderStyle>;
}

/** Position of a shape on the slide, in EMU, and the blocks its text gives. */
interface PlacedBlocks {
  x: number;
  y: number;
  order: number;
  blocks: OfficeBlock[];
}

/** A group's child coordinates mapped to the slide's: x' = scaleX * x + shiftX. */
interface Transform {
  scaleX: number;
  shiftX: number;
  scaleY: number;
  shiftY: number;
}

const IDENTITY: Transform = { scaleX: 1, shiftX: 0, scaleY: 1, shiftY: 0 };
const TITLE_TYPES = new Set(['title', 'ctrTitle']);
/** Placeholders that show the deck's running furniture, not the slide's content. */
const FURNITURE_TYPES = new Set(['sldNum', 'dt']);
/** Placeholders whose paragraphs carry the master's bullets unless told otherwise. */
const BODY_TYPES = new Set(['body', 'obj']);

/** The placeholder type of a shape (`obj` when a placeholder names none), or undefined. */
function placeholderOf(shape: XmlElement): { type: string; index?: string } | undefined {
  const placeholder = descendants(
    child(shape, 'nvSpPr') ?? child(shape, 'nvGraphicFramePr'),
    'ph',
  )[0];
  if (!placeholder) return undefined;
  return { type: attribute(placeholder, 'type') ?? 'obj', index: attribute(placeholder, 'idx') };
}

/** The style of the placeholder a shape takes its place and bullets from. */
export function placeholderStyle(
  placeholders: Placeholders,
  placeholder: { type: string; index?: string },
): PlaceholderStyle | undefined {
  const byIndex =
    placeholder.index !== undefined ? placeholders.byIndex.get(placeholder.index) : undefined;
  if (byIndex) return byIndex;
  const type = TITLE_TYPES.has(placeholder.type) ? 'title' : placeholder.type;
  return (
    placeholders.byType.get(type) ?? (type === 'obj' ? placeholders.byType.get('body') : undefined)
  );
}

/** The offset of an `a:xfrm` (or `p:xfrm`) element, when it has one. */
export function offsetOf(transform: XmlElement | undefined): { x: number; y: number } | undefined {
  const offset = child(transform, 'off');
  if (!offset) return undefined;
  return { x: numberAttribute(offset, 'x'), y: numberAttribute(offset, 'y') };
}

/** The bullet a list style (`a:lstStyle` or a `a:pPr`) gives level by level. */
export function bulletLevels(list: XmlElement | undefined): { on: Set<number>; off: Set<number> } {
  const on = new Set<number>();
  const off = new Set<number>();
  for (let level = 0; level < 9; level++) {
    const style = child(list, `lvl${level + 1}pPr`);
    if (child(style, 'buNone')) off.add(level);
    else if (child(style, 'buChar') || child(style, 'buAutoNum') || child(style, 'buBlip'))
      on.add(level);
  }
  return { on, off };
}

/** A paragraph's words: its runs and fields, a line break as a space. */
function paragraphText(paragraph: XmlElement): string {
  let text = '';
  for (const part of paragraph.children) {
    if (part.name === 'r' || part.name === 'fld') text += child(part, 't')?.text ?? '';
    else if (part.name === 'br') text += ' ';
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** The blocks of a shape's text body, its bullets resolved from the paragraph up. */
function textBlocks(
  body: XmlElement | undefined,
  placeholder: { type: string; index?: string } | undefined,
  style: PlaceholderStyle | undefined,
): OfficeBlock[] {
  const blocks: OfficeBlock[] = [];
  const own = bulletLevels(child(body, 'lstStyle'));
  for (const paragraph of childrenNamed(body, 'p')) {
    const text = paragraphText(paragraph);
    if (text === '') continue;
    if (placeholder && TITLE_TYPES.has(placeholder.type)) {
      blocks.push({ kind: 'heading', level: 1, text });
      continue;
    }
    const properties = child(paragraph, 'pPr');
    const level = Math.min(8, Math.max(0, numberAttribute(properties, 'lvl')));
    const explicitOff = Boolean(child(properties, 'buNone'));
    const explicitOn = Boolean(
      child(properties, 'buChar') || child(properties, 'buAutoNum') || child(properties, 'buBlip'),
    );
    const inherited = own.on.has(level)
      ? true
      : own.off.has(level)
        ? false
        : style?.bulleted.has(level)
          ? true
          : style?.unbulleted.has(level)
            ? false
            : placeholder !== undefined && BODY_TYPES.has(placeholder.type);
    const bulleted = explicitOn || (!explicitOff && inherited);
    blocks.push(bulleted ? { kind: 'item', level, text } : { kind: 'paragraph', text });
  }
  return blocks;
}

/** The rows of an `a:tbl`, a merged cell's text once (in its first cell). */
function tableRows(table: XmlElement): string[][] {
  return childrenNamed(table, 'tr').map((row) =>
    childrenNamed(row, 'tc').map((cell) =>
      attribute(cell, 'hMerge') === '1' || attribute(cell, 'vMerge') === '1'
        ? ''
        : childrenNamed(child(cell, 'txBody'), 'p')
            .map(paragraphText)
            .filter((text) => text !== '')
            .join(' '),
    ),
  );
}

function apply(transform: Transform, point: { x: number; y: number }) {
  return {
    x: transform.scaleX * point.x + transform.shiftX,
    y: transform.scaleY * point.y + transform.shiftY,
  };
}

/** A group's transform composed with its parent's (child extents scaled onto its own). */
function groupTransform(parent: Transform, group: XmlElement): Transform {
  const frame = path(group, 'grpSpPr', 'xfrm');
  const offset = offsetOf(frame) ?? { x: 0, y: 0 };
  const childOffset = child(frame, 'chOff');
  const extent = child(frame, 'ext');
  const childExtent = child(frame, 'chExt');
  const ratio = (whole: number, part: number) => (part > 0 && whole > 0 ? whole / part : 1);
  const scaleX = ratio(numberAttribute(extent, 'cx'), numberAttribute(childExtent, 'cx'));
  const scaleY = ratio(numberAttribute(extent, 'cy'), numberAttribute(childExtent, 'cy'));
  const local: Transform = {
    scaleX,
    shiftX: offset.x - scaleX * numberAttribute(childOffset, 'x'),
    scaleY,
    shiftY: offset.y - scaleY * numberAttribute(childOffset, 'y'),
  };
  return {
    scaleX: parent.scaleX * local.scaleX,
    shiftX: parent.scaleX * local.shiftX + parent.shiftX,
    scaleY: parent.scaleY * local.scaleY,
    shiftY: parent.scaleY * local.shiftY + parent.shiftY,
  };
}

/**
 * The blocks of a slide's shape tree in reading order: shapes by their top edge, then their
 * left edge, on the slide (group transforms applied; a placeholder without a position of its
 * own is where its layout or master puts it); a shape with no known position after the others,
 * in the order written. Titles are headings, bulleted paragraphs list items, tables tables.
 */
export function slideBlocks(
  tree: XmlElement | undefined,
  placeholders: Placeholders,
): OfficeBlock[] {
  const placed: PlacedBlocks[] = [];
  const visit = (container: XmlElement, transform: Transform) => {
    for (const element of container.children) {
      if (element.name === 'AlternateContent') {
        const chosen = child(element, 'Fallback') ?? child(element, 'Choice');
        if (chosen) visit(chosen, transform);
      } else if (element.name === 'grpSp') {
        visit(element, groupTransform(transform, element));
      } else if (element.name === 'sp') {
        const placeholder = placeholderOf(element);
        if (placeholder && FURNITURE_TYPES.has(placeholder.type)) continue;
        const style = placeholder ? placeholderStyle(placeholders, placeholder) : undefined;
        const offset = offsetOf(path(element, 'spPr', 'xfrm')) ?? style?.offset;
        const blocks = textBlocks(child(element, 'txBody'), placeholder, style);
        if (blocks.length > 0) place(offset, transform, blocks);
      } else if (element.name === 'graphicFrame') {
        const table = descendants(path(element, 'graphic', 'graphicData'), 'tbl')[0];
        const rows = table ? tableRows(table).filter((row) => row.some((cell) => cell !== '')) : [];
        if (rows.length > 0)
          place(offsetOf(child(element, 'xfrm')), transform, [{ kind: 'table', rows }]);
      }
    }
  };
  const place = (
    offset: { x: number; y: number } | undefined,
    transform: Transform,
    blocks: OfficeBlock[],
  ) => {
    const at = offset ? apply(transform, offset) : { x: Infinity, y: Infinity };
    placed.push({ ...at, order: placed.length, blocks });
  };
  if (tree) visit(tree, IDENTITY);
  placed.sort((a, b) => a.y - b.y || a.x - b.x || a.order - b.order);
  return placed.flatMap((shape) => shape.blocks);
}
