import busboy from "busboy";
import express, { type RequestHandler } from "express";
import { DocketError } from "../errors/errors.js";

/** Where an upload's bytes and media type go in the operation's input. */
export interface UploadFields {
  bytesField: string;
  typeField: string;
}

/**
 * The body of an operation that takes a file (publish_evidence): JSON as usual (its limit grown to
 * hold the file in base64), multipart/form-data (one file part, and short fields), or any other
 * content type as the file itself. The file's bytes reach the input base64-encoded, in `bytesField`,
 * its Content-Type in `typeField`; past `maxBytes` the answer is 413.
 */
export function uploadBodyParser(fields: UploadFields, maxBytes: number): RequestHandler {
  const tooLarge = () =>
    new DocketError("PAYLOAD_TOO_LARGE", `evidence is at most ${maxBytes} bytes (EVIDENCE_MAX_BYTES)`, { maxBytes });
  const json = express.json({ limit: Math.ceil((maxBytes * 4) / 3) + 64 * 1024, strict: false, type: () => true });
  const raw = express.raw({ limit: maxBytes, type: () => true });
  return (req, res, next) => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody) return next();
    const type = req.headers["content-type"] ?? "";
    if (/^application\/([\w.+-]+\+)?json\b/i.test(type)) return json(req, res, next);
    if (/^multipart\/form-data\b/i.test(type)) return multipart(req, fields, maxBytes, tooLarge, next);
    return raw(req, res, (err?: unknown) => {
      if (err) return next((err as { type?: string }).type === "entity.too.large" ? tooLarge() : err);
      const bytes = req.body as Buffer;
      req.body = { [fields.bytesField]: bytes.toString("base64"), [fields.typeField]: type };
      next();
    });
  };
}

function multipart(
  req: Parameters<RequestHandler>[0],
  fields: UploadFields,
  maxBytes: number,
  tooLarge: () => DocketError,
  next: (err?: unknown) => void,
): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fileSize: maxBytes, fields: 8, fieldSize: 16 * 1024 },
    });
  } catch (err) {
    next(new DocketError("INVALID_INPUT", `the multipart body could not be read: ${(err as Error).message}`));
    return;
  }
  const body: Record<string, string> = {};
  const chunks: Buffer[] = [];
  let failed: DocketError | undefined;
  let done = false;
  const finish = (err?: unknown) => {
    if (done) return;
    done = true;
    next(err);
  };
  parser.on("field", (name, value) => {
    if (name !== fields.bytesField) body[name] = value;
  });
  parser.on("file", (_name, stream, info) => {
    body[fields.typeField] ??= info.mimeType;
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("limit", () => {
      failed = tooLarge();
    });
  });
  parser.on("filesLimit", () => {
    failed ??= new DocketError("INVALID_INPUT", "send one file per upload");
  });
  parser.on("error", (err: Error) => {
    finish(failed ?? new DocketError("INVALID_INPUT", `the multipart body could not be read: ${err.message}`));
  });
  parser.on("close", () => {
    if (failed) {
      finish(failed);
      return;
    }
    if (chunks.length > 0) body[fields.bytesField] = Buffer.concat(chunks).toString("base64");
    req.body = body;
    finish();
  });
  req.pipe(parser);
}
