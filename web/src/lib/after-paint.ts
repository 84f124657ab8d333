/**
 * Runs `callback` once the browser has painted what the page has just drawn (a frame's callback,
 * then a task after it), and returns what cancels it. Work that the first screen does not show
 * starts here, so that it neither delays that paint nor shares the network with what it needs.
 */
export function afterPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
