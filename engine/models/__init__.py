"""One module per model: its data, init(η), exact log-likelihood, measures, and how it is read,
written and shown. ``protocol.Model`` lists what every model offers; ``registry`` finds them."""
