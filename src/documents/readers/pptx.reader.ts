import { CorruptDocumentError } from './document.errors.js';
import { checkPageCount } from './input-limits.js';
import { blockCharacters, type OfficeBlock, type OfficePage } from './office-blocks.js';
import { enforceLimit } from './document-limits.js';
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

/**
 * A slide's layout and master placeholders (empty when the slide names neither), each
 * layout read once however many slides use it (`layouts`, by part name).
 */
async function slidePlaceholders(
  zip: OfficeZip,
  slidePart: string,
  layouts: Map<string, Placeholders>,
): Promise<Placeholders> {
  const placeholders: Placeholders = { byIndex: new Map(), byType: new Map() };
  const layoutPart = await relatedPart(zip, slidePart, 'slideLayout');
  if (layoutPart === undefined) return placeholders;
  const known = layouts.get(layoutPart);
  if (known) return known;
  layouts.set(layoutPart, placeholders);
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
    const pageSize = size && size.width > 0 && size.height > 0 ? { size } : {};
    const pages: OfficePage[] = [];
    // A slide part listed again is read once; its text counts again, as it is given again.
    const slides = new Map<string, OfficeBlock[] | 'hidden'>();
    const layouts = new Map<string, Placeholders>();
    let characters = 0;
    for (const [position, slideId] of slideIds.entries()) {
      const id = attribute(slideId, 'r:id') ?? '';
      const slidePart = relationships.get(id);
      let blocks = slidePart !== undefined ? slides.get(slidePart) : undefined;
      if (blocks === undefined) {
        const slideXml = slidePart !== undefined ? await zip.part(slidePart) : undefined;
        if (slidePart === undefined || slideXml === undefined) {
          throw new CorruptDocumentError(
            'pptx',
            `The PPTX lists slide ${position + 1} (relationship ${id || 'without an id'}) but has no such slide part`,
          );
        }
        const slide = parseXml(slideXml);
        const show = attribute(slide, 'show');
        blocks =
          show === '0' || show === 'false'
            ? 'hidden'
            : slideBlocks(
                path(slide, 'cSld', 'spTree'),
                await slidePlaceholders(zip, slidePart, layouts),
              );
        slides.set(slidePart, blocks);
      }
      if (blocks === 'hidden') continue;
      characters += blockCharacters(blocks);
      enforceLimit(
        'maxOfficeTextChars',
        characters,
        (max) => `The PPTX holds more than ${max} characters of text`,
      );
      pages.push({ blocks, ...pageSize });
    }
    return pages.length > 0 ? pages : [{ blocks: [], ...pageSize }];
  } catch (error) {
    throw officeError('pptx', error);
  } finally {
    zip.close();
  }
}
