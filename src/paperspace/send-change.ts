// A change whose answer carries nothing the client reads (a destroy, an update, an access grant):
// any success body means it was done, and it is never sent twice, since a repeat could do it twice.
import type { HttpCore, HttpRequest } from './http.js';
import { acknowledgementSchema } from './schemas.js';

export type ChangeRequest = Omit<HttpRequest<unknown>, 'schema' | 'anySuccessBody' | 'idempotent'>;

export async function sendChange(core: HttpCore, request: ChangeRequest): Promise<void> {
  await core.send({ ...request, schema: acknowledgementSchema, anySuccessBody: true, idempotent: false });
}
