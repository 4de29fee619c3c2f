#!/usr/bin/env python3
"""Writes docs/learned/prior-topics.yaml, the training topics of the
link-model prior (docs/learned.md, "A prior for a new topic"), from the
corpus as a wikimirror serves it:

    docs/learned/prior-topics.py MIRROR_URL > docs/learned/prior-topics.yaml

Every h2 and h3 heading of the 13 seed pages becomes a topic, its words
(less the words below, and the seed's own name) the topic words. A
heading is left out when no word is left, when it holds a digit, or when
a word shares its stem (less a final s) with a word of an evaluation
topic: docs/learned/topics.yaml's, and EVAL below (the third held-out
set and the three left out of it). Standard library only.
"""
import re
import sys
import urllib.request

SEEDS = {"Seattle": "seattle", "United_States": "us", "Google": "google",
         "Michael_Jackson": "jackson", "Donald_Trump": "trump",
         "Barack_Obama": "obama", "Microsoft": "microsoft", "Apple_Inc.": "apple",
         "Washington_(state)": "washington", "New_York_City": "nyc",
         "Los_Angeles": "la", "Facebook": "facebook", "Hillary_Clinton": "clinton"}
EVAL = """coffee starbucks cafe immigration immigrant search engine index dance
video choreography wrestling wwe cloud azure server law professor harvard
iphone ios smartphone economy trade gdp port ship maritime""".split()
# Words that name no topic: meta sections, periods, and the words around them.
DROP = set("""see also references reference notes note bibliography further
reading external links citations footnotes internet sources other lists
official history early life career overview etymology legacy aftermath
first second half term tenure years later post modern contemporary
nineteenth century era family personal images image cultural political
affairs corporate identity state states united us u president presidential
presidency transition actions home page logo products services business
units more impact statistics reception notable people cities towns areas
concentration growth onward writings recordings books written comments
views positions themes overall traditional duties data birth the and of in
to from with a on after up its for public government politics""".split())


def stem(w):
    return w.lower().rstrip("s")


def main(mirror):
    words = set(EVAL)
    with open("docs/learned/topics.yaml") as f:
        for topics in re.findall(r"topics: \[([^\]]*)\]", f.read()):
            for t in topics.split(","):
                words.update(t.strip().lower().split())
    evals = {stem(w) for w in words}
    print(HEADER, end="")
    seen, names = set(), set()
    for seed, short in SEEDS.items():
        html = urllib.request.urlopen(f"{mirror}/wiki/{seed}").read().decode()
        own = set(re.findall(r"[a-z]+", seed.lower()))
        for head in re.findall(r'<h[23]><span class="mw-headline" id="[^"]*">([^<]*)', html):
            if re.search(r"\d", head):
                continue
            ws = [w.lower() for w in re.findall(r"[A-Za-z]+", head)]
            content = [w for w in ws if w not in DROP and w not in own and len(w) > 2]
            if not content or any(stem(w) in evals for w in content) or (seed, tuple(content)) in seen:
                continue
            seen.add((seed, tuple(content)))
            name = (short + "-" + "-".join(content))[:40]
            n, i = name, 2
            while n in names:
                n, i = f"{name}-{i}", i + 1
            names.add(n)
            print(f"  - {{name: {n}, seeds: [/wiki/{seed}], topics: [{', '.join(content)}]}}")


HEADER = """# Training topics of the link-model prior (cmd/trainprior; docs/learned.md,
# "A prior for a new topic"). Made mechanically from the corpus by
# prior-topics.py (its comment says the rule): every h2 and h3 section
# heading of the 13 pages that seed docs/learned's evaluation topics, the
# heading's words as the topic words, leaving out headings that are meta
# (references, see also, ...), periods (history, early life, years, dated
# headings), or share a word with any evaluation topic (topics.yaml and
# the third held-out set), so that every topic the docs measure stays
# held out from the prior.
defaults:
  base_url: https://en.wikipedia.org
  user_agent: "topicrank-eval/0.1 (https://example.org/topicrank)"
  epsilons: [0.01]
  max_pages: 250
  admission: best-first
  strategy: learned
  relevance_threshold: 0.1
  politeness: {max_rps: 1000, concurrency: 8}

jobs:
"""

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: docs/learned/prior-topics.py MIRROR_URL > docs/learned/prior-topics.yaml")
    main(sys.argv[1].rstrip("/"))
