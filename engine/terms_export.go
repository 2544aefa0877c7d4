package engine

// Terms are the stemmed content words of text: lower-cased, stopwords
// left out, each stemmed with the Snowball English stemmer, in order,
// repeats kept; the terms prompt relevance scores lessons by.
func Terms(text string) []string { return tokenize(text) }
