/**
 * @bosun/http: what every Bosun HTTP service shares: one error shape, validation with the protocol's validators,
 * JSON body rules, answers to what the framework refuses, credential-free logs, the OpenAPI document and zipped
 * downloads.
 */
export { documentErrorResponses } from './error-responses.ts';
export {
  ConflictError,
  HttpError,
  InputError,
  NotFoundError,
  installErrorHandlers,
  sendValidationError,
} from './errors.ts';
export { type BufferedSocket, type ReplaySocket, drained, parseJson, replayStart } from './event-socket.ts';
export { edgeErrorOptions, installEdgeErrors } from './framework-errors.ts';
export { installJsonBody } from './json-body.ts';
export { MAX_JSON_DEPTH, nestsDeeperThan, tooDeep } from './json-depth.ts';
export {
  type LogDestination,
  type LogFormat,
  type LogFormatSetting,
  logFormatFor,
  logFormatSetting,
  logStreamFor,
  prettyLogStream,
} from './log-format.ts';
export { loggerOptions, redactUrl } from './log-options.ts';
export { nulTextProblem, refuseNulText } from './nul-text.ts';
export { type OpenApiOptions, installOpenApi } from './openapi.ts';
export { type OperationRules, completeOperations, operationId } from './openapi-operations.ts';
export { referencedComponents } from './openapi-references.ts';
export { logLevelSetting, serviceSettings, timeoutSettings, timeoutsOf } from './settings.ts';
export { type ConnectionTimeouts, DEFAULT_TIMEOUTS } from './timeouts.ts';
export { FORWARDS_BODY } from './content-encoding.ts';
export { type HttpServerOptions, createHttpServer } from './server.ts';
export { validatorCompiler } from './validation.ts';
export { type ZipEntry, zipStream } from './zip-stream.ts';
