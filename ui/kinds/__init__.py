"""One module per kind of data a model analyses (its ``display``): the kind's corpus picker and
how the pages draw its analysis, each registered in ``registry``."""
