import type { Scope } from './scopes';

export type ErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'bad_request'
  | 'unprocessable'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal';

export type FieldErrorCode = 'missing' | 'invalid' | 'too_long' | 'taken';

export interface FieldError {
  field: string;
  code: FieldErrorCode;
  message: string;
}

export interface DomainErrorDetails {
  errors: FieldError[];
}

export type NotFoundResource =
  | 'organization'
  | 'pipeline'
  | 'build'
  | 'team'
  | 'registry'
  | 'user'
  | 'job'
  | 'agent'
  | 'team_pipeline'
  | 'access_token'
  | 'agent_token'
  | 'rule'
  | 'pipeline_template'
  | 'suite'
  | 'team_suite'
  | 'banner'
  | 'team_member'
  | 'invitation'
  | 'cluster'
  | 'cluster_queue'
  | 'cluster_token'
  | 'annotation'
  | 'artifact'
  | 'notification_service';

/** An expected failure: `kind` picks the transport status, `code` is stable for machines, `message` is shown. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details?: DomainErrorDetails;
  /** further members of the error body after `message` (a 429's `scope`, `limit`, `current`, `reset`) */
  readonly fields?: Readonly<Record<string, string | number>>;

  constructor(init: {
    kind: ErrorKind;
    code: string;
    message: string;
    details?: DomainErrorDetails;
    fields?: Readonly<Record<string, string | number>>;
  }) {
    super(init.message);
    this.kind = init.kind;
    this.code = init.code;
    if (init.details) this.details = init.details;
    if (init.fields) this.fields = init.fields;
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError;
}

export function unauthenticated(): DomainError {
  return new DomainError({
    kind: 'unauthenticated',
    code: 'unauthenticated',
    message:
      'Authentication required. Please supply a valid API Access Token: https://buildkite.com/docs/apis/rest-api#authentication',
  });
}

export function missingScope(scope: Scope): DomainError {
  return new DomainError({
    kind: 'forbidden',
    code: 'missing_scope',
    message: `Your access token doesn't have the ${scope} scope`,
  });
}

export function forbidden(): DomainError {
  return new DomainError({ kind: 'forbidden', code: 'forbidden', message: 'Forbidden' });
}

export function notFound(resource: NotFoundResource): DomainError {
  return new DomainError({
    kind: 'not_found',
    code: `${resource}_not_found`,
    message: `No ${resource.replaceAll('_', ' ')} found`,
  });
}

/** A request body past the server's limit (`BODY_LIMIT_BYTES`), refused before it is read further. */
export function payloadTooLarge(): DomainError {
  return new DomainError({
    kind: 'payload_too_large',
    code: 'payload_too_large',
    message: 'Request body is too large',
  });
}

export function badRequest(code: string, message: string): DomainError {
  return new DomainError({ kind: 'bad_request', code, message });
}

export function validationFailed(errors: FieldError[]): DomainError {
  return new DomainError({
    kind: 'unprocessable',
    code: 'validation_failed',
    message: 'Validation Failed',
    details: { errors },
  });
}

export function unprocessable(code: string, message: string): DomainError {
  return new DomainError({ kind: 'unprocessable', code, message });
}
