import { type WrongUserCase, as, strangerCalls } from './ownership-support.ts';

/** Launch links read and write no one's data: any signed-in user gets the same answer. */
export const LAUNCH_CASES: Record<string, WrongUserCase> = {
  'POST /api/v1/launch/link': {
    expected: 'own',
    attempt: strangerCalls({ plugins: [{ source: 'github:acme/tools' }] }),
  },
  'GET /api/v1/launch/decode': {
    expected: 'own',
    attempt: (api, { stranger }) =>
      api.call(`/api/v1/launch/decode?plugins=${btoa('[{"source":"github:acme/tools"}]')}`, as(stranger)),
  },
};
