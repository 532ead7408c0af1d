// Wiki shapes (fixtures/gitlab-docs/wikis/): a page with or without its content, and the answer
// to an attachment upload.
import type { WikiAttachment, WikiPage } from '../data/model.js';

/** `GET /projects/:id/wikis` leaves `content` out unless `with_content` is set. */
export function wikiPageEntity(page: WikiPage, withContent = true) {
  return {
    ...(withContent ? { content: page.content } : {}),
    format: page.format,
    slug: page.slug,
    title: page.title,
    encoding: 'UTF-8',
  };
}

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg)$/i;

/**
 * fixtures/wikis/upload-wiki-attachment.json. GitLab's markdown link embeds images (`![name](url)`,
 * the name without its extension) and links other files (`[file](url)`).
 */
export function wikiAttachmentEntity(attachment: WikiAttachment) {
  const markdown = IMAGE_EXTENSIONS.test(attachment.fileName)
    ? `![${attachment.fileName.replace(/\.[^.]*$/, '')}](${attachment.filePath})`
    : `[${attachment.fileName}](${attachment.filePath})`;
  return {
    file_name: attachment.fileName,
    file_path: attachment.filePath,
    branch: attachment.branch,
    link: { url: attachment.filePath, markdown },
  };
}
