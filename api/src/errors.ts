/**
 * One error type per kind of failure the caller can cause; the error handler maps them to HTTP
 * statuses in one place (plugins/errors.ts). Messages are written for the walker to read.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * 503 by design: the server is busy with this kind of work (photos or exports queued to their
 * limit, a draw's beacon round not yet out) and the caller is told to come back. Nothing failed.
 */
export class BusyError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "You are not signed in. Please sign in to continue.") {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

export class UnprocessableError extends AppError {
  constructor(message: string) {
    super(422, message);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
