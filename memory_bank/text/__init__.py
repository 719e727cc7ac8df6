"""Text handling shared by every stage, each rule defined once: `tokens` (words, stopwords, the token estimate),
`split` (sentences, paragraphs, verbatim spans), `chunks` (paragraphs packed to a budget), `pages` (page ranges
and labels), `tags` (tagged blocks in model replies)."""
