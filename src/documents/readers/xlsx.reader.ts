import { CorruptDocumentError } from './document.errors.js';
import { documentLimits } from './document-limits.js';
import { checkPageCount } from './input-limits.js';
import type { OfficeBlock, OfficePage } from './office-blocks.js';
import {
  attribute,
  child,
  childrenNamed,
  parseXml,
  readRelationships,
  relationshipsPart,
} from './office-xml.js';
import { officeError, openOfficeZip, type OfficeZip } from './office-zip.js';
import {
  sharedStringsReader,
  sheetReader,
  sheetTables,
  type WorkbookContext,
} from './xlsx-sheet.js';
import { numberKinds } from './xlsx-values.js';

/** A part the workbook's relationships name by type (last segment), e.g. `sharedStrings`. */
function partOfType(
  relsXml: string | undefined,
  workbookPart: string,
  type: string,
): string | undefined {
  if (relsXml === undefined) return undefined;
  const relationship = childrenNamed(parseXml(relsXml), 'Relationship').find((r) =>
    (attribute(r, 'Type') ?? '').endsWith(`/${type}`),
  );
  const id = relationship ? attribute(relationship, 'Id') : undefined;
  return id ? readRelationships(workbookPart, relsXml).get(id) : undefined;
}

/** The workbook part the package's root relationships name (`xl/workbook.xml` by default). */
async function workbookPartOf(zip: OfficeZip): Promise<string> {
  return partOfType(await zip.part('_rels/.rels'), '', 'officeDocument') ?? 'xl/workbook.xml';
}

/**
 * The sheets of an XLSX as pages, in the workbook's order: each sheet with text a page
 * holding its name as the heading and its used range as tables, apart where empty rows
 * run between them (a cell standing alone a paragraph). Hidden sheets are left
 * out, as are sheets without text and chart sheets (they hold no cells); a workbook with
 * none left is one empty page
 * (docs/decisions/0543-slide-decks-spreadsheets-and-csv-as-inputs.md).
 */
export async function xlsxPages(bytes: Uint8Array): Promise<OfficePage[]> {
  const zip = await openOfficeZip(bytes, 'xlsx');
  try {
    const workbookPart = await workbookPartOf(zip);
    const workbookXml = await zip.part(workbookPart);
    if (workbookXml === undefined) {
      throw new CorruptDocumentError('xlsx', `The XLSX has no workbook part (${workbookPart})`);
    }
    const workbook = parseXml(workbookXml);
    const relsXml = await zip.part(relationshipsPart(workbookPart));
    const relationships = readRelationships(workbookPart, relsXml);
    const stringsPart = partOfType(relsXml, workbookPart, 'sharedStrings');
    const stylesPart = partOfType(relsXml, workbookPart, 'styles');
    const date1904 = ['1', 'true'].includes(
      attribute(child(workbook, 'workbookPr'), 'date1904') ?? '',
    );
    const strings = sharedStringsReader();
    if (stringsPart) await zip.streamPart(stringsPart, strings.write);
    const sheets = childrenNamed(child(workbook, 'sheets'), 'sheet').filter(
      (sheet) => !['hidden', 'veryHidden'].includes(attribute(sheet, 'state') ?? ''),
    );
    checkPageCount(sheets.length);
    const context: WorkbookContext = {
      sharedStrings: strings.end(),
      numberKinds: numberKinds(stylesPart ? await zip.part(stylesPart) : undefined),
      date1904,
      cellsRead: 0,
      charactersRead: 0,
    };
    const pages: OfficePage[] = [];
    for (const [position, sheet] of sheets.entries()) {
      const name = attribute(sheet, 'name') ?? `Sheet ${position + 1}`;
      const id = attribute(sheet, 'r:id') ?? '';
      const sheetPart = relationships.get(id);
      const reader = sheetReader(context, name);
      const found = sheetPart !== undefined && (await zip.streamPart(sheetPart, reader.write));
      if (!found) {
        throw new CorruptDocumentError(
          'xlsx',
          `The XLSX lists sheet "${name}" (relationship ${id || 'without an id'}) but has no such sheet part`,
        );
      }
      const cells = reader.end();
      const tables = sheetTables(cells, name, documentLimits().maxSheetCells);
      if (tables.length === 0) continue;
      // A cell standing alone (a title, a note) is a paragraph, not a table of one cell.
      const blocks = tables.map((rows): OfficeBlock =>
        rows.length === 1 && rows[0].length === 1
          ? { kind: 'paragraph', text: rows[0][0] }
          : { kind: 'table', rows },
      );
      pages.push({ blocks: [{ kind: 'heading', level: 1, text: name }, ...blocks] });
    }
    return pages.length > 0 ? pages : [{ blocks: [] }];
  } catch (error) {
    throw officeError('xlsx', error);
  } finally {
    zip.close();
  }
}
