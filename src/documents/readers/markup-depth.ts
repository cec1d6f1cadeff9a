import { Parser } from 'htmlparser2';
import { enforceLimit } from './document-limits.js';
import { CorruptDocumentError } from './document.errors.js';

/**
 * Counts element nesting while markup streams through a tokenizer (no tree is built), and
 * throws DocumentLimitError past MAX_MARKUP_DEPTH. The HTML converter and the DOCX reader
 * walk their trees recursively, so a document nested 100,000 levels deep would otherwise
 * end in a stack overflow. HTML mode follows the parser's implied closes (`<p><p>`, void
 * elements); XML mode counts `<a/>` as open and closed, and refuses a document type
 * declaration.
 */
export class MarkupDepthGauge {
  private depth = 0;
  private readonly parser: Parser;

  constructor(
    what: string,
    xmlMode: boolean,
    /** The Office format whose part this is, as its errors name it. */
    fileType = 'docx',
  ) {
    this.parser = new Parser(
      {
        onopentag: () => {
          this.depth++;
          enforceLimit(
            'maxMarkupDepth',
            this.depth,
            (max) => `The ${what} nests elements more than ${max} levels deep`,
            422,
          );
        },
        onclosetag: () => {
          this.depth = Math.max(0, this.depth - 1);
        },
        // Office Open XML parts never declare a document type: one that does is built to
        // define entities (expanding ones, or external ones), which the XML reader would
        // otherwise refuse with its own internal message.
        onprocessinginstruction: (name) => {
          if (xmlMode && name.toLowerCase() === '!doctype') {
            throw new CorruptDocumentError(
              fileType,
              `The ${what} declares a document type (<!DOCTYPE>), which Office documents never ` +
                'carry; it is not read (save the document again from its editor)',
            );
          }
        },
      },
      { xmlMode, recognizeSelfClosing: true },
    );
  }

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): void {
    this.parser.end();
  }
}

/** Checks the nesting depth of a whole HTML text (see MarkupDepthGauge). */
export function checkHtmlDepth(html: string): void {
  const gauge = new MarkupDepthGauge('HTML document', false);
  gauge.write(html);
  gauge.end();
}
