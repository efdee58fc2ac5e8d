// Saves text, or any bytes, as a file through the browser's own download: an <a download> over a Blob URL, which
// works in web mode and in the Electron window alike, so exporting needs no channel of its own.

export function saveTextFile(fileName: string, mediaType: string, text: string, host: Document = document): void {
  saveBlob(fileName, new Blob([text], { type: mediaType }), host);
}

export function saveBlob(fileName: string, blob: Blob, host: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = host.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  host.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has taken the Blob by the time the click returns; a moment later the URL can go.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
