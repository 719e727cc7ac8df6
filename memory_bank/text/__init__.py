"""Text handling shared by every stage: tokens and token estimates, sentences and paragraphs, chunks, pages."""
