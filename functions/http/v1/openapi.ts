import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { observed } from '../../lib/http.ts';
import { buildOpenApiDocument } from './openapi-doc.ts';

let doc: ReturnType<typeof buildOpenApiDocument> | undefined;

/** GET /v1/openapi.json (public): the OpenAPI 3.1 document of the `/v1` API, built once per process. */
export const handler = observed(async (_event: APIGatewayProxyEventV2) => {
  doc ??= buildOpenApiDocument('/');
  return { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }, body: JSON.stringify(doc) };
});
