import { z } from 'zod';
import { clearable, createInput, htmlText, requiredText, updateInput } from '../../core/validation';

const albumFields = {
  title: requiredText(255),
  description: clearable(htmlText('Album.description'), ''),
  settingComments: z.boolean(),
  settingMemberPost: z.boolean(),
  published: z.boolean(),
};

export const createAlbumSchema = createInput(albumFields, ['title']);
export const updateAlbumSchema = updateInput(albumFields);

/** At most this many files in one create: the request is one transaction. */
export const maxFilesPerCreate = 100;

const caption = clearable(htmlText('AlbumContent.caption'), '');

/** A file (upload) id: an integer on the wire, a numeric string as a GraphQL ID. */
const fileId = z.union([z.int().min(0), z.string().regex(/^\d{1,15}$/).transform(Number)], { error: 'must be a file id' });

export const createContentSchema = z.object({
  files: z
    .array(fileId)
    .min(1, 'name at least one uploaded file')
    .max(maxFilesPerCreate, `at most ${maxFilesPerCreate} files at once`),
  extras: z
    .array(
      z.object({
        fid: fileId,
        caption: caption.nullish(),
        displayOrder: z.int().min(-1_000_000).max(1_000_000).nullish(),
        albumCover: z.boolean().nullish(),
      }),
    )
    .max(maxFilesPerCreate)
    .nullish()
    .transform((extras) => extras ?? []),
});

export const updateContentSchema = updateInput({ caption, displayOrder: z.int().min(-1_000_000).max(1_000_000), albumCover: z.boolean() });

// A comment of nothing but markup that sanitizing removes (a lone script) is as blank as an empty one.
const comment = htmlText('AlbumComment.comment').refine((html) => html.trim() !== '', 'is required');
export const createCommentSchema = createInput({ comment }, ['comment']);
