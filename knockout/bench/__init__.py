"""The benchmark (``knockout bench``): every performance goal measured in one run.

It sits above everything it times, the CLI included (:mod:`knockout.program` registers its
command), so the layer contracts see each thing it measures.
"""
