import fs from 'node:fs';
import readline from 'node:readline';
import { Injectable } from '@nestjs/common';
import { UsageIngestService } from '../ingestion/usage-ingest.service.js';
import type { RejectionReason } from '../ingestion/normalized-usage-event.js';

export interface ImportReport {
  accepted: number;
  duplicates: number;
  rejected: number;
  rejectedByReason: Partial<Record<RejectionReason, number>>;
  /** The first rejections with their 1-based line numbers, to fix the file. */
  rejections: { line: number; reason: RejectionReason; detail: string }[];
}

const BATCH_SIZE = 5000;
const MAX_LISTED_REJECTIONS = 100;

/** Loads NDJSON usage events (one CloudEvent per line) through the ingestion path. */
@Injectable()
export class UsageImportService {
  constructor(private readonly ingest: UsageIngestService) {}

  /**
   * `allowLate`: the operator says so explicitly, and events older than the late-event
   * window load too (never past USAGE_MAX_EVENT_AGE_DAYS); without it they are refused
   * as `late_event`, as on the live topic.
   */
  importFile(path: string, allowLate = false): Promise<ImportReport> {
    return this.importLines(
      readline.createInterface({ input: fs.createReadStream(path), crlfDelay: Infinity }),
      allowLate,
    );
  }

  async importLines(lines: AsyncIterable<string>, allowLate = false): Promise<ImportReport> {
    const report: ImportReport = {
      accepted: 0,
      duplicates: 0,
      rejected: 0,
      rejectedByReason: {},
      rejections: [],
    };
    let batch: string[] = [];
    let lineNumbers: number[] = [];
    let lineNumber = 0;
    const flush = async () => {
      const outcome = await this.ingest.ingest(batch, new Date(), allowLate ? 'accept' : 'refuse');
      report.accepted += outcome.accepted;
      report.duplicates += outcome.duplicates;
      for (const { index, rejection } of outcome.rejected) {
        report.rejected++;
        report.rejectedByReason[rejection.reason] =
          (report.rejectedByReason[rejection.reason] ?? 0) + 1;
        if (report.rejections.length < MAX_LISTED_REJECTIONS) {
          report.rejections.push({ line: lineNumbers[index], ...rejection });
        }
      }
      batch = [];
      lineNumbers = [];
    };
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      batch.push(line);
      lineNumbers.push(lineNumber);
      if (batch.length >= BATCH_SIZE) await flush();
    }
    if (batch.length > 0) await flush();
    return report;
  }
}
