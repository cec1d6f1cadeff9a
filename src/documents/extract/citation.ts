import type { BoundingBox, LayoutLine } from '../parse/layout.types.js';
import { roundBox } from '../parse/layout.types.js';

/** Where a value was read: the text of the line (or cell) and its box. */
export interface Citation {
  type: 'Key Value' | 'Text' | 'Table';
  content: string;
  bbox: BoundingBox;
}

/** A whole line cited as where a value was read. */
export function lineCitation(line: LayoutLine, type: Citation['type']): Citation {
  return { type, content: line.text, bbox: roundBox(line.bbox) };
}
