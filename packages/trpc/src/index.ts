export { type HttpError, httpErrorFor } from './http-errors';
