import type { LayoutEngine } from '../versions/engines.js';
import { formBlocks, type BlockType, type ParseBlock } from './layout.engines.js';
import type { BoundingBox, LayoutDocument } from './layout.types.js';
import { roundBox } from './layout.types.js';

export type ChunkMode = 'variable' | 'section' | 'page' | 'disabled' | 'block' | 'page_sections';

interface ParseOptions {
  engine: LayoutEngine;
  chunkMode?: ChunkMode;
  /** Target characters per chunk in `variable` mode. */
  chunkSize?: number | null;
  /** Block types left out of chunk `content` and `embed` (blocks are still listed). */
  filterBlocks?: readonly BlockType[];
  /** Include `ocr.lines` / `ocr.words` (the positioned text the blocks were formed from). */
  returnOcrData?: boolean;
  /** Add `[[page N]]` markers to chunk content at page starts. */
  addPageMarkers?: boolean;
}

interface ParseChunk {
  content: string;
  embed: string;
  enriched: null;
  enrichment_success: false;
  blocks: ParseBlock[];
}

interface OcrData {
  lines: { text: string; bbox: BoundingBox; confidence: number | null }[];
  words: { text: string; bbox: BoundingBox; confidence: number | null }[];
}

/** `result` of the reductoai ParseResponse (FullResult). */
export interface ParseResult {
  type: 'full';
  chunks: ParseChunk[];
  ocr: OcrData | null;
}

const DEFAULT_VARIABLE_CHUNK = 1000;

/** Markdown of one block, as it appears in a chunk's `content`. */
function blockMarkdown(block: ParseBlock): string {
  switch (block.type) {
    case 'Title':
      return `# ${block.content}`;
    case 'Section Header':
      return `## ${block.content}`;
    default:
      return block.content;
  }
}

function isHeading(block: ParseBlock): boolean {
  return block.type === 'Title' || block.type === 'Section Header';
}

function chunkBlocks(blocks: ParseBlock[], mode: ChunkMode, chunkSize: number): ParseBlock[][] {
  if (blocks.length === 0) return [];
  const groups: ParseBlock[][] = [];
  let current: ParseBlock[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) groups.push(current);
    current = [];
    size = 0;
  };
  blocks.forEach((block, index) => {
    const previous = blocks[index - 1];
    const newPage = previous !== undefined && previous.bbox.page !== block.bbox.page;
    let cut = false;
    switch (mode) {
      case 'disabled':
        break;
      case 'block':
        cut = true;
        break;
      case 'page':
        cut = newPage;
        break;
      case 'section':
        cut = isHeading(block);
        break;
      case 'page_sections':
        cut = newPage || isHeading(block);
        break;
      case 'variable':
        cut = (isHeading(block) && size > chunkSize / 4) || size + block.content.length > chunkSize;
        break;
    }
    if (cut) flush();
    current.push(block);
    size += block.content.length;
  });
  flush();
  return groups;
}

/**
 * Parse over a loaded document: blocks formed by the layout engine (the pinned or default
 * `layout_model` version), grouped into chunks, in the reductoai response shape.
 */
export function parseDocument(document: LayoutDocument, options: ParseOptions): ParseResult {
  const blocks = formBlocks(options.engine, document.pages);
  const filtered = new Set(options.filterBlocks ?? []);
  const groups = chunkBlocks(
    blocks,
    options.chunkMode ?? 'disabled',
    options.chunkSize ?? DEFAULT_VARIABLE_CHUNK,
  );
  const chunks = groups.map((group): ParseChunk => {
    const parts: string[] = [];
    let page = -1;
    for (const block of group) {
      if (options.addPageMarkers && block.bbox.page !== page)
        parts.push(`[[page ${block.bbox.page}]]`);
      page = block.bbox.page;
      if (!filtered.has(block.type)) parts.push(blockMarkdown(block));
    }
    const content = parts.join('\n\n');
    return { content, embed: content, enriched: null, enrichment_success: false, blocks: group };
  });
  let ocr: OcrData | null = null;
  if (options.returnOcrData) {
    ocr = { lines: [], words: [] };
    for (const page of document.pages) {
      for (const line of page.lines) {
        ocr.lines.push({ text: line.text, bbox: roundBox(line.bbox), confidence: null });
        for (const word of line.words) {
          ocr.words.push({ text: word.text, bbox: roundBox(word.bbox), confidence: null });
        }
      }
    }
  }
  return { type: 'full', chunks, ocr };
}
