/** A cell with text, at its row and column (1-based) on the sheet. */
export interface PlacedCell {
  row: number;
  column: number;
  text: string;
}

/**
 * The blocks of cells a sheet holds, top to bottom: apart at every row without text (a
 * title above a table, tables one below another, the sections of a form). Side by side
 * blocks are not taken apart at empty columns: a form's labels and values are often
 * columns apart, and cutting there would part each label from its value.
 */
export function sheetRegions(cells: readonly PlacedCell[]): PlacedCell[][] {
  const sorted = [...cells].sort((a, b) => a.row - b.row || a.column - b.column);
  const regions: PlacedCell[][] = [];
  let current: PlacedCell[] = [];
  for (const cell of sorted) {
    const last = current[current.length - 1];
    if (last && cell.row > last.row + 1) {
      regions.push(current);
      current = [];
    }
    current.push(cell);
  }
  if (current.length > 0) regions.push(current);
  return regions;
}
