import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import type { InputDocument, InputSource } from '../core/input-document.js';
import { ProcessingError } from '../core/processing-error.js';
import { inputsTooLarge } from './input-size-errors.js';
import { SafeFetcher } from './safe-fetcher.js';
import { readParsedSource } from './parsed-inputs.js';
import { StagedInputs } from './staged-inputs.js';

/**
 * Reads input sources into documents, in order, within one total size budget: the one
 * reading path of the API process's workers and of the Redis worker processes (which have
 * the DATA_DIR volume and the fetcher, but no DuckDB).
 */
@Injectable()
export class InputDocuments {
  private readonly blobDir: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fetcher: SafeFetcher,
    private readonly staged: StagedInputs,
  ) {
    this.blobDir = path.join(config.dataDir, 'blobs');
  }

  async read(sources: readonly InputSource[]): Promise<InputDocument[]> {
    let budget = this.config.processing.maxUploadBytes;
    const documents: InputDocument[] = [];
    for (const source of sources) {
      if ('parsed' in source) {
        const parsed = await readParsedSource(this.blobDir, source);
        documents.push({
          bytes: new Uint8Array(0),
          fileName: source.fileName,
          contentType: null,
          parsed,
        });
        continue;
      }
      const document =
        'blob' in source
          ? await this.readBlob(source)
          : 'staged' in source
            ? await this.readStaged(source, budget)
            : await fetchInputDocument(
                this.fetcher,
                source.url,
                budget,
                this.config.processing.maxUploadBytes,
              );
      documents.push(document);
      budget -= document.bytes.length;
    }
    return documents;
  }

  /** A downloaded URL input: within what is left of the budget, as a fetch would be. */
  private async readStaged(
    source: { staged: string; fileName: string },
    budget: number,
  ): Promise<InputDocument> {
    const file = this.staged.fileOfReference(source.staged);
    const bytes = file ? await fs.promises.readFile(file).catch(() => null) : null;
    if (!bytes) {
      throw new ProcessingError(
        'INPUT_FETCH_FAILED',
        `The downloaded input ${source.fileName} is no longer there`,
        400,
      );
    }
    if (bytes.length > budget) throw inputsTooLarge(this.config.processing.maxUploadBytes);
    return { bytes, fileName: source.fileName, contentType: null };
  }

  private async readBlob(source: { blob: string; fileName: string }): Promise<InputDocument> {
    const bytes = await fs.promises
      .readFile(path.join(this.blobDir, path.basename(source.blob)))
      .catch(() => {
        throw new ProcessingError('FILE_NOT_FOUND', `No uploaded file ${source.fileName}`, 404);
      });
    return { bytes, fileName: source.fileName, contentType: null };
  }
}

/**
 * A URL input fetched within what is left of the size budget, named after the last path
 * segment of the URL it ended at.
 */
async function fetchInputDocument(
  fetcher: SafeFetcher,
  url: string,
  budget: number,
  limit: number,
): Promise<InputDocument> {
  if (budget <= 0) throw inputsTooLarge(limit);
  const fetched = await fetcher.fetchDocument(url, budget);
  const name = path.posix.basename(new URL(fetched.finalUrl).pathname) || 'document';
  return { bytes: fetched.bytes, fileName: safeDecode(name), contentType: fetched.contentType };
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
