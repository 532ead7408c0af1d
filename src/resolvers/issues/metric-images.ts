import type { FileUpload } from '../../datasources/file-upload.js';
import { badUserInput } from '../../errors/graphql-errors.js';

/** IssuableMetricImage::MAX_FILE_SIZE: REST refuses larger metric images ("File is too large"). */
export const METRIC_IMAGE_MAX_BYTES = 1024 * 1024;
/** The image types REST stores as metric images (MetricImageUploading `validate_file_is_image`). */
const IMAGE_FILE = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp)$/i;

/** The upload, refused before any REST call when REST would refuse it for its size or type. */
export function checkMetricImage(file: FileUpload): FileUpload {
  if (file.size > METRIC_IMAGE_MAX_BYTES) {
    throw badUserInput(`\`file\` is ${file.size} bytes; metric images are at most ${METRIC_IMAGE_MAX_BYTES} bytes (1 MiB).`, 'file');
  }
  if (!IMAGE_FILE.test(file.filename)) {
    throw badUserInput(`\`file\` must be an image (png, jpg, jpeg, gif, bmp, tiff, ico or webp); got "${file.filename.slice(0, 100)}".`, 'file');
  }
  return file;
}
