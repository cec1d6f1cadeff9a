import { describe, expect, it } from '@jest/globals';
import type { IngestOutcome, UsageIngestService } from '../ingestion/usage-ingest.service.js';
import { UsageImportService } from './usage-import.service.js';

/**
 * An ingestion path that refuses lines reading "bad", counts lines reading "dup" as
 * duplicates and accepts the rest, recording the batches it was given.
 */
function ingestion() {
  const batches: string[][] = [];
  const ingest = {
    ingest: (payloads: readonly unknown[]): Promise<IngestOutcome> => {
      const lines = payloads as string[];
      batches.push([...lines]);
      const rejected = lines.flatMap((line, index) =>
        line === 'bad'
          ? [{ index, rejection: { reason: 'malformed_json' as const, detail: 'not JSON' } }]
          : [],
      );
      const duplicates = lines.filter((l) => l === 'dup').length;
      return Promise.resolve({
        accepted: lines.length - rejected.length - duplicates,
        duplicates,
        rejected,
      });
    },
  } as unknown as UsageIngestService;
  return { batches, sut: new UsageImportService(ingest) };
}

async function* lines(...all: string[]): AsyncGenerator<string> {
  for (const line of all) yield line;
}

describe(UsageImportService.name, () => {
  it('counts accepted, duplicate and rejected lines, naming each rejection by its line number', async () => {
    const { sut } = ingestion();
    const report = await sut.importLines(lines('ok', '', 'bad', 'dup', '   ', 'ok', 'bad'));
    expect(report).toEqual({
      accepted: 2,
      duplicates: 1,
      rejected: 2,
      rejectedByReason: { malformed_json: 2 },
      // Blank lines are skipped but still counted, so the numbers match the file.
      rejections: [
        { line: 3, reason: 'malformed_json', detail: 'not JSON' },
        { line: 7, reason: 'malformed_json', detail: 'not JSON' },
      ],
    });
  });

  it('sends no batch for an empty or blank file', async () => {
    const { sut, batches } = ingestion();
    const report = await sut.importLines(lines('', ' '));
    expect(batches).toEqual([]);
    expect(report).toMatchObject({ accepted: 0, duplicates: 0, rejected: 0, rejections: [] });
  });

  it('ingests in batches of 5000 lines, keeping line numbers right across batches', async () => {
    const { sut, batches } = ingestion();
    const all = Array.from({ length: 10_001 }, (_, i) => (i === 5_000 ? 'bad' : 'ok'));
    const report = await sut.importLines(lines(...all));
    expect(batches.map((b) => b.length)).toEqual([5_000, 5_000, 1]);
    expect(report.rejections).toEqual([
      { line: 5_001, reason: 'malformed_json', detail: 'not JSON' },
    ]);
    expect(report.accepted).toBe(10_000);
  });

  it('lists the first 100 rejections and counts all of them', async () => {
    const { sut } = ingestion();
    const report = await sut.importLines(lines(...Array.from({ length: 150 }, () => 'bad')));
    expect(report.rejected).toBe(150);
    expect(report.rejectedByReason).toEqual({ malformed_json: 150 });
    expect(report.rejections).toHaveLength(100);
    expect(report.rejections.at(-1)!.line).toBe(100);
  });
});
