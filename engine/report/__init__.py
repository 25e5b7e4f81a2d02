"""What the engine writes for people to read: charts of chains (Vega-Lite, for the pages and PNG
files) and the files a race leaves. Used by the command line and the pages alike."""
