"""A "how many" question is matched by the sentence that counts its noun, not by one that says "many"."""

from __future__ import annotations

from memory_bank.retrieval.rerank import SentenceReranker
from memory_bank.text.counts import count_marks, counted_marks, question_terms

COUNTING = "As of May 31, 2023, we employed approximately 164,000 full-time employees worldwide."
SHARE = "In fiscal 2023, 81% of our employees at Oracle participated in the annual survey."
MONEY = "Our contributions to the Oracle plan for employees were $198 million in fiscal 2023."
MANY = "Many of our employees joined in 2023."


def test_a_number_marks_the_words_it_counts_and_money_shares_and_years_count_nothing() -> None:
    assert "#n:employe" in count_marks(COUNTING)
    assert "#n:tenet" in count_marks("The document lists seven tenets of zero trust.")
    assert "#n:wildebeest" in count_marks("Two million wildebeest migrate each year.")
    assert not count_marks(SHARE) & {"#n:employe", "#n:participat"}
    assert "#n:employe" not in count_marks(MONEY)
    assert count_marks("In 2023 employees were asked.") == frozenset()
    # a number counts what follows it until the next number
    assert "#n:employe" not in count_marks("The tenure is eight years and 27% of our employees stay.")


def test_a_count_question_asks_for_its_noun_counted_not_for_the_word_many() -> None:
    terms = question_terms("How many employees did Oracle have at the end of fiscal 2023?")
    assert "many" not in terms and "#n:employe" in terms and "employe" in terms
    assert counted_marks("Approximately how many architectural drawings does the V&A hold?") == (
        "#n:architectural", "#n:drawing")
    assert counted_marks("How many people live in Nairobi?") == ()  # a word a counting sentence rarely repeats
    assert counted_marks("How many did Oracle buy?") == ()
    assert counted_marks("What are the tenets?") == ()
    assert "many" in question_terms("Why do many users prefer it?")  # not a count question: a word like any


def test_the_reranker_puts_the_counting_passage_before_one_that_says_many() -> None:
    sources = {"many": MANY, "share": SHARE, "count": COUNTING}
    reranker = SentenceReranker(sources.__getitem__)
    ranked = reranker.rerank("How many employees did the company have in 2023?",
                             [(node_id, 0.5) for node_id in sources])
    assert ranked[0][0] == "count"


def test_the_counted_thing_is_the_noun_the_count_counts_and_a_vague_quantity_no_count() -> None:
    """"How many federal agencies have already fully deployed a ZTA?" was answered by NIST SP 800-207's "Several
    existing federal policies and guidance intersect with … a ZTA": "federal" was counted, and "several" taken for
    a number. What is counted is the phrase's noun (agencies), and "several" gives no number unless the question
    asks for none ("Roughly how many …")."""
    from memory_bank.text.counts import counted_phrase, counts_head, vague_question
    from memory_bank.text.tokens import stem

    assert (counted_phrase("How many federal agencies have already fully deployed a ZTA?") or ("",))[0] == "agenc"
    assert (counted_phrase("How many full-time equivalent employees did Apple have?") or ("",))[0] == "employe"
    assert (counted_phrase("Exactly how many public cloud regions did Oracle operate?") or ("",))[0] == "region"
    assert counted_phrase("How many square feet is the facility?") is None  # a unit
    assert counted_phrase("How many D&I Imperatives does Oracle act on?") is None  # a name
    several = "Several existing federal policies and guidance intersect with the planning, deployment, and " \
              "operation of a ZTA."
    assert not counts_head(several, stem("agencies"))  # it counts policies
    assert not counts_head(several, stem("policies"))  # and vaguely
    assert counts_head(several, stem("policies"), vague=True)
    assert counts_head(COUNTING, "employe") and not counts_head(MONEY, "employe")
    assert vague_question("Roughly how many federal policies intersect with the planning of a ZTA?")
    assert not vague_question("How many federal policies intersect with the planning of a ZTA?")


def test_a_count_of_another_word_of_the_counted_phrase_counts_it_unless_it_names_another_thing() -> None:
    """"How many employee record look-ups …" is counted by "exceed 100 records in a day" (NIST SP 800-207's HR
    example), which names no other thing; "Three federal policies" names policies, not federal agencies."""
    from memory_bank.text.counts import counted_phrase, counts_head

    look_ups = counted_phrase("How many employee record look-ups in a day should raise an alert?")
    assert look_ups is not None
    assert counts_head("A contextual TA may send an alert if the access requests suddenly exceed 100 records in a "
                       "day.", *look_ups)
    agencies = counted_phrase("How many federal agencies run a ZTA?")
    assert agencies is not None
    assert not counts_head("Three federal policies intersect with a ZTA.", *agencies)
    assert counts_head("Three federal agencies run a ZTA.", *agencies)
