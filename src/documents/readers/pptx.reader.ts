import { CorruptDocumentError } from './document.errors.js';
import { checkPageCount } from './input-limits.js';
import type { OfficePage } from './office-blocks.js';
import { openOfficeZip, officeError, type OfficeZip } from './office-zip.js';
import {
  attribute,
  child,
  childrenNamed,
  descendants,
  numberAttribute,
  parseXml,
  path,
  readRelationships,
  relationshipsPart,
  type XmlElement,
} from './office-xml.js';
import {
  bulletLevels,
  offsetOf,
  slideBlocks,
  type PlaceholderStyle,
  type Placeholders,
} from './pptx-shapes.js';

/** Points per EMU (English Metric Unit): 914,400 EMU to the inch, 72 points. */
const EMU_PER_POINT = 12_700;

/** The part a relationship of `type` (last segment, e.g. `officeDocument`) points at. */
async function relatedPart(
  zip: OfficeZip,
  part: string,
  type: string,
): Promise<string | undefined> {
  const rels = await zip.part(relationshipsPart(part));
  if (rels === undefined) return undefined;
  const root = parseXml(rels);
  const relationship = childrenNamed(root, 'Relationship').find((r) =>
    (attribute(r, 'Type') ?? '').endsWith(`/${type}`),
  );
  const id = relationship ? attribute(relationship, 'Id') : undefined;
  return id ? readRelationships(part, rels).get(id) : undefined;
}

/** The placeholders a layout or master part draws, each with its position and bullets. */
function placeholdersOf(part: XmlElement | undefined, into: Placeholders): void {
  for (const shape of descendants(path(part, 'cSld', 'spTree'), 'sp')) {
    const placeholder = descendants(child(shape, 'nvSpPr'), 'ph')[0];
    if (!placeholder) continue;
    const bullets = bulletLevels(path(shape, 'txBody', 'lstStyle'));
    const style: PlaceholderStyle = {
      offset: offsetOf(path(shape, 'spPr', 'xfrm')),
      bulleted: bullets.on,
      unbulleted: bullets.off,
    };
    const type = attribute(placeholder, 'type') ?? 'obj';
    const index = attribute(placeholder, 'idx');
    // The layout is read first: what it says stands, the master fills in what it leaves out.
    const merge = (known: PlaceholderStyle | undefined) =>
      known ? { ...known, offset: known.offset ?? style.offset } : style;
    if (index !== undefined) into.byIndex.set(index, merge(into.byIndex.get(index)));
    const key = type === 'ctrTitle' ? 'title' : type;
    into.byType.set(key, merge(into.byType.get(key)));
  }
}

/** A slide's layout and master placeholders (empty when the slide names neither). */
async function slidePlaceholders(zip: OfficeZip, slidePart: string): Promise<Placeholders> {
  const placeholders: Placeholders = { byIndex: new Map(), byType: new Map() };
  const layoutPart = await relatedPart(zip, slidePart, 'slideLayout');
  if (layoutPart === undefined) return placeholders;
  const layout = await zip.part(layoutPart);
  if (layout !== undefined) placeholdersOf(parseXml(layout), placeholders);
  const masterPart = await relatedPart(zip, layoutPart, 'slideMaster');
  const master = masterPart !== undefined ? await zip.part(masterPart) : undefined;
  if (master !== undefined) placeholdersOf(parseXml(master), placeholders);
  return placeholders;
}

/**
 * The slides of a PPTX as pages, in presentation order (`p:sldIdLst`, not part names),
 * hidden slides (`show="0"`) left out, each slide's size from `p:sldSz` in points. Speaker
 * notes are not read: they are the presenter's, not what the slide shows
 * (docs/decisions/0543-slide-decks-spreadsheets-and-csv-as-inputs.md).
 */
export async function pptxPages(bytes: Uint8Array): Promise<OfficePage[]> {
  const zip = await openOfficeZip(bytes, 'pptx');
  try {
    const presentationPart =
      (await relatedPart(zip, '', 'officeDocument').catch(() => undefined)) ??
      'ppt/presentation.xml';
    const presentationXml = await zip.part(presentationPart);
    if (presentationXml === undefined) {
      throw new CorruptDocumentError(
        'pptx',
        `The PPTX has no presentation part (${presentationPart})`,
      );
    }
    const presentation = parseXml(presentationXml);
    const slideSize = child(presentation, 'sldSz');
    const size = slideSize
      ? {
          width: numberAttribute(slideSize, 'cx') / EMU_PER_POINT,
          height: numberAttribute(slideSize, 'cy') / EMU_PER_POINT,
          unit: 'pt' as const,
        }
      : undefined;
    const relationships = readRelationships(
      presentationPart,
      await zip.part(relationshipsPart(presentationPart)),
    );
    const slideIds = childrenNamed(child(presentation, 'sldIdLst'), 'sldId');
    checkPageCount(slideIds.length);
    const pages: OfficePage[] = [];
    for (const [position, slideId] of slideIds.entries()) {
      const id = attribute(slideId, 'r:id') ?? '';
      const slidePart = relationships.get(id);
      const slideXml = slidePart !== undefined ? await zip.part(slidePart) : undefined;
      if (slidePart === undefined || slideXml === undefined) {
        throw new CorruptDocumentError(
          'pptx',
          `The PPTX lists slide ${position + 1} (relationship ${id || 'without an id'}) but has no such slide part`,
        );
      }
      const slide = parseXml(slideXml);
      if (attribute(slide, 'show') === '0' || attribute(slide, 'show') === 'false') continue;
      const placeholders = await slidePlaceholders(zip, slidePart);
      const blocks = slideBlocks(path(slide, 'cSld', 'spTree'), placeholders);
      pages.push({ blocks, ...(size && size.width > 0 && size.height > 0 ? { size } : {}) });
    }
    return pages.length > 0 ? pages : [{ blocks: [], ...(size ? { size } : {}) }];
  } catch (error) {
    throw officeError('pptx', error);
  } finally {
    zip.close();
  }
}
