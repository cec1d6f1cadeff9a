import { IntersectionType } from '@nestjs/mapped-types';
import { OperationBaseDto, ParseOptionsDto } from '../../requests/operation-requests.dto.js';

/**
 * The body of `/parse` and `/parse_async`: the parse options extract and split take under
 * `parsing`, with the fields every operation shares (described in that order).
 */
export class ParseConfigDto extends IntersectionType(ParseOptionsDto, OperationBaseDto) {}
