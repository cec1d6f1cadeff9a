import { RequestValidationError } from '../../common/validation-error.js';
import { validateExtractRequest } from '../../documents/extract/extract-schema.js';
import type { ExtractRequest } from '../../documents/extract/extract.runner.js';
import type { ParseRequest } from '../../documents/parse/parse.runner.js';
import type {
  ClassifyStepRequest,
  ExtractVersions,
  PipelineStep,
  PipelineTask,
} from '../../documents/pipeline/pipeline.runner.js';
import type { SplitRequest } from '../../documents/split/split.runner.js';
import {
  resolveExtractVersions,
  resolveParseVersions,
  resolveSplitVersions,
  type VersionResolver,
} from '../../documents/versions/model-pins.js';

type Body = Record<string, unknown>;
type Loc = (string | number)[];

/** What a run needs of a pipeline: its parse and steps, versions resolved (no documents yet). */
export type PipelinePlan = Pick<PipelineTask, 'parse' | 'steps'>;

/**
 * Runs an operation's own request checks (extract schema, pins and their preconditions) on a
 * part of a pipeline definition, its 422s pointing into the definition at `at`.
 */
function checkedAt<T>(at: Loc, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    throw new RequestValidationError(
      error.detail.map((item) => ({
        ...item,
        loc: [...at, ...(item.loc[0] === 'body' ? item.loc.slice(1) : item.loc)],
      })),
    );
  }
}

function extractPart(
  body: Body,
  at: Loc,
  resolver: VersionResolver,
): { request: ExtractRequest; versions: ExtractVersions } {
  return checkedAt(at, () => {
    validateExtractRequest(body);
    return { request: body, versions: resolveExtractVersions(body, resolver) };
  });
}

/**
 * A stored pipeline definition (the validated body of POST /pipelines, as JSON) as the parse
 * and steps an executor runs, every pin resolved now: when the pipeline is created (to refuse
 * a bad one with a 422 pointing into it) and again when a run is accepted (the run keeps the
 * versions it was accepted with, as every operation does).
 */
export function planPipeline(
  definition: Body,
  resolver: VersionResolver,
  at: Loc = ['body'],
): PipelinePlan {
  const parseRequest = (definition.parse ?? {}) as Body;
  const parse = {
    request: parseRequest as ParseRequest,
    versions: checkedAt([...at, 'parse'], () => resolveParseVersions(parseRequest, resolver)),
  };
  const steps = (definition.steps as Body[]).map((step, index): PipelineStep => {
    const stepAt = [...at, 'steps', index];
    if (step.extract) {
      return {
        kind: 'extract',
        ...extractPart(step.extract as Body, [...stepAt, 'extract'], resolver),
      };
    }
    if (step.split) {
      // Split's pin rule asks for a request with an input: a run always has one.
      const body = { ...(step.split as Body), input: 'pipeline' };
      const versions = checkedAt([...stepAt, 'split'], () => resolveSplitVersions(body, resolver));
      return { kind: 'split', request: step.split as SplitRequest, versions };
    }
    const classify = step.classify as Body & { extract_by_category?: Record<string, Body> };
    const branches = Object.entries(classify.extract_by_category ?? {}).map(
      ([category, extract]) =>
        [
          category,
          extractPart(extract, [...stepAt, 'classify', 'extract_by_category', category], resolver),
        ] as const,
    );
    return {
      kind: 'classify',
      request: classify as unknown as ClassifyStepRequest,
      ...(branches.length > 0 && { extractByCategory: Object.fromEntries(branches) }),
    };
  });
  return { parse, steps };
}
