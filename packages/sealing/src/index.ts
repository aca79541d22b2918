export { type SealedParts, openParts, sealParts } from './aes-gcm.ts';
export {
  KEY_BYTES,
  SecretsKeyError,
  checkedKey,
  createKeyFile,
  keyIdOf,
  newSecretsKey,
  parseSecretsKey,
  readKeyFile,
} from './secrets-key.ts';
