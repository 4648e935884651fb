/**
 * Users' files outside the database: the `FileStore` service every module's handlers get, and its
 * two implementations (a local folder, an S3-compatible bucket), and the type check and bounded read
 * of an uploaded file.
 */
export {
  FileStore,
  FileStoreError,
  isValidFileKey,
  localFileStore,
  s3FileStore,
  signAwsV4,
  type AwsV4Credentials,
  type AwsV4Request,
  type FileStoreShape,
  type S3Options,
  type StoredFile,
} from "./FileStore.ts"
export { readUpTo, sniffFileType, type SniffedType } from "./sniff.ts"
