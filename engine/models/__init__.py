"""One folder per model: its data, init(η), exact log-likelihood, measures, how it is read,
written and shown, and its kernels. ``protocol`` declares the roles a model plays (chain model,
presentation, population, parameters, …); ``registry`` finds the models and checks each against
the roles it claims."""
