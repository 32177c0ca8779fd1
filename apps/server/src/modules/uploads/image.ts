import sharp, { type Metadata, type OutputInfo, type SharpOptions } from "sharp";
import { AppError } from "../../http/app-error.ts";

/** Limits of an uploaded image (UPLOAD_MAX_BYTES, UPLOAD_MAX_PIXELS, UPLOAD_MAX_SIDE). */
export interface ImageLimits {
  maxBytes: number;
  /** width × height of the decoded image; guards against decompression bombs. */
  maxPixels: number;
  /** Longest side in pixels. */
  maxSide: number;
}

export const defaultImageLimits: ImageLimits = {
  maxBytes: 5 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxSide: 10_000,
};

/** A re-encoded image, ready to store. */
export interface CleanImage {
  bytes: Buffer;
  contentType: "image/jpeg" | "image/png";
  width: number;
  height: number;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format of a file by its first bytes only: JPEG (FF D8 FF) or PNG; anything else is null. */
export function sniffImage(bytes: Uint8Array): "jpeg" | "png" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return "jpeg";
  }
  if (bytes.length >= 8 && pngSignature.equals(Buffer.from(bytes.subarray(0, 8)))) return "png";
  return null;
}

// libvips may use every core; uploads are rare and small, one thread keeps the kernel's share.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Checks an upload by its content and re-encodes it: only JPEG and PNG by their magic bytes
 * (never SVG, GIF, TIFF, HEIF or anything else libvips could read), header dimensions checked
 * before any pixel is decoded, then fully decoded (a truncated or corrupt file is refused) and
 * encoded afresh in the same format with no metadata: EXIF, GPS, ICC, XMP, comments and any bytes
 * after the image (a ZIP or HTML tail of a polyglot) are gone. Orientation is applied first so
 * a photo still shows the right way up.
 */
export async function cleanImage(input: Buffer, limits: ImageLimits): Promise<CleanImage> {
  if (input.length > limits.maxBytes) throw new AppError("upload_too_large");
  const format = sniffImage(input);
  if (!format) throw new AppError("upload_not_an_image");
  const options: SharpOptions = {
    limitInputPixels: limits.maxPixels,
    failOn: "truncated",
    sequentialRead: true,
  };
  let metadata: Metadata;
  try {
    metadata = await sharp(input, options).metadata();
  } catch (error) {
    // The header alone is read: a bomb's claimed size is refused before any pixel is decoded.
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError("upload_too_many_pixels");
    }
    throw new AppError("upload_not_an_image");
  }
  // libvips must agree with the magic bytes: a PNG signature in front of something else fails.
  if (metadata.format !== format) throw new AppError("upload_not_an_image");
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw new AppError("upload_not_an_image");
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    throw new AppError("upload_too_many_pixels");
  }
  if ((metadata.pages ?? 1) > 1) throw new AppError("upload_not_an_image");
  let output: { data: Buffer; info: OutputInfo };
  try {
    const pipeline = sharp(input, options).rotate();
    output = await (
      format === "jpeg"
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : pipeline.png({ compressionLevel: 9 })
    ).toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError("upload_too_many_pixels");
    }
    throw new AppError("upload_not_an_image");
  }
  if (sniffImage(output.data) !== format) throw new AppError("upload_not_an_image");
  return {
    bytes: output.data,
    contentType: format === "jpeg" ? "image/jpeg" : "image/png",
    width: output.info.width,
    height: output.info.height,
  };
}
