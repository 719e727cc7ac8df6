"""A list said in one counted sentence answers a question for items of that kind."""

from memory_bank.engines.offline.counted_list import counted_sentence, enumerated_count
from memory_bank.engines.offline.evidence import Evidence


def _ev(text: str, prior: float = 0.5) -> Evidence:
    return Evidence(text, "n1", "filing.pdf", (4,), prior)


def test_a_counted_list_of_the_asked_kind_is_the_answer() -> None:
    evidence = [_ev("We continue to expand into new businesses and acquire companies.", 1.0),
                _ev("We discuss the results of each of our three businesses—cloud and license, hardware and "
                    "services—which are our operating segments.", 0.9),
                _ev("We have three businesses: cloud and license; hardware; and services.", 0.1)]
    answer = counted_sentence("What are Oracle's main businesses?", evidence)
    assert answer is not None and answer.text.startswith("We have three businesses:")  # a colon: a list


def test_no_counted_list_of_another_kind_or_for_a_question_of_no_items() -> None:
    evidence = [_ev("We have three businesses: cloud and license; hardware; and services.")]
    assert counted_sentence("What are Oracle's main risks?", evidence) is None  # another kind of item
    assert counted_sentence("What does Oracle sell?", evidence) is None  # no kind of item asked for
    # a count pointing elsewhere, or naming fewer than two words after the mark, is no list
    assert counted_sentence("What are the businesses?", [_ev("It has three businesses (see Note 2).")]) is None
    assert counted_sentence("What are the businesses?", [_ev("It has three businesses: all.")]) is None


def test_a_counted_sentence_saying_the_asked_subject_beats_a_list_that_never_says_it() -> None:
    from memory_bank.engines.offline.counted_list import says_more_of
    from memory_bank.text.asks import item_noun

    pdp = _ev("From Figure 1, the policy decision point (PDP) is broken down into two logical components: the "
              "policy engine and policy administrator (defined below).")
    core = "Logical Components Policy engine (PE): This component decides. Policy administrator (PA): It sets up."
    for question in ("How many components is the PDP broken into?", "What is a PDP made of?"):
        counted = counted_sentence(question, [pdp])
        assert counted is not None and says_more_of(question, counted, core), question
    assert item_noun("What does the PDP consist of?") == "components"
    question = "What are the logical components?"  # the list says as much of it: the list stays
    counted = counted_sentence(question, [pdp])
    assert counted is not None and not says_more_of(question, counted, core)


def test_the_counted_sentence_whose_passage_names_the_subject_wins() -> None:
    from memory_bank.text.asks import item_noun

    pdp = Evidence("From Figure 1, the policy decision point (PDP) is broken down into two logical components: the "
                   "policy engine and policy administrator (defined below).", "pdp", "nist.pdf", (18,), 0.9)
    pep = Evidence("This is a single logical component in ZTA but may be broken into two different components: the "
                   "client and resource side.", "pep", "nist.pdf", (18,), 0.5)
    passages = {"pdp": pdp.text, "pep": "Policy enforcement point (PEP): This system is responsible for enabling, "
                "monitoring, and eventually terminating connections. " + pep.text}
    for question in ("What is a policy enforcement point made of?", "What is a policy enforcement point broken into?"):
        assert item_noun(question) == "components", question  # its "policy" is no kind of item
        counted = counted_sentence(question, [pdp, pep], passages.__getitem__)
        assert counted is not None and counted.used[0].node_id == "pep", question
        assert counted.text.startswith("Policy enforcement point (PEP): This is a single"), question  # which one
    counted = counted_sentence("What is a PDP made of?", [pdp, pep], passages.__getitem__)
    assert counted is not None and counted.used[0].node_id == "pdp"


def test_a_count_in_the_question_makes_its_noun_a_kind_of_item() -> None:
    from memory_bank.text.asks import counted_kind, item_noun

    assert counted_kind("What are the two planes of a zero trust architecture?") == (2, "planes")
    assert counted_kind("What are Oracle's three business segments?") == (3, "segments")  # the last noun
    assert item_noun("What are the two planes of a zero trust architecture and what travels on each?") == "planes"
    assert counted_kind("What are the core components?") is None  # no count said
    assert counted_kind("What is the business?") is None


# NIST SP 800-207, §3 and §3.4 (PDF pp. 18 and 27), and a sentence of its §2 that says "zero trust" more
PLANES = "The ZTA logical components use a separate control plane to communicate, while application data is " \
         "communicated on a data plane (see Section 3.4)."
FLOWS = "The PEPs must be able to send and receive messages from both the data and control planes."
ZT = "Zero trust architecture is an enterprise's cybersecurity plan that utilizes zero trust concepts."


def test_the_sentence_naming_as_many_kinds_as_the_question_counts_is_the_answer() -> None:
    from memory_bank.engines.offline.counted_list import kinds_named

    assert kinds_named(PLANES, "planes") == ["control", "data"]
    assert kinds_named(FLOWS, "planes") == ["control"]  # "data and control planes": one named by its word
    answer = counted_sentence("What are the two planes of a zero trust architecture?",
                              [_ev(ZT, 1.0), _ev(FLOWS, 0.9), _ev(PLANES, 0.1)])
    assert answer is not None and answer.text == PLANES
    # a question counting three planes is not answered by a sentence naming two
    assert counted_sentence("What are the three planes of a zero trust architecture?", [_ev(PLANES)]) is None


def test_a_part_asked_of_each_counted_item_is_answered_by_the_sentence_naming_them(embedder, tmp_path) -> None:
    from memory_bank import MemoryBank, Settings

    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    bank.ingest_text("\n\n".join([ZT, "A zero trust architecture is built from logical components. " + PLANES,
                                  "Zero trust assumes there is no implicit trust granted to assets."]),
                     source="zta.txt")
    result = bank.run("What are the two planes of a zero trust architecture and what travels on each?")
    assert result.answer.count(PLANES) == 1, result.answer  # both parts, shown once
    assert "Not found" not in result.answer
    bank.clear()


def test_how_many_is_counted_from_the_sentence_that_names_them_all() -> None:
    """"How many reportable segments does Apple have?" had a pointer to Note 11 for its answer; the sentence
    naming the five segments answers it, counted."""
    pointer = Evidence("Further information regarding the Company's reportable segments can be found in Note 11.", "n1")
    named = Evidence("The Company's reportable segments consist of the Americas, Europe, Greater China, Japan and "
                     "Rest of Asia Pacific.", "n2")
    answer = enumerated_count("How many reportable segments does Apple have?", [pointer, named])
    assert answer is not None and answer.text.startswith("There are 5 segments: The Company's reportable"), answer
    assert enumerated_count("What are Apple's reportable segments?", [named]) is None  # no count asked
    made = Evidence("The Company's products are designed, manufactured and sold worldwide.", "n3")
    assert enumerated_count("How many products does the Company sell?", [made]) is None  # "are" names no items
    oxford = Evidence("Our platform comprises the policy engine, the policy administrator, and the enforcement "
                      "point.", "n4")
    counted = enumerated_count("How many parts does the platform have?", [oxford])
    assert counted is None  # the noun ("parts") is not what the sentence enumerates
    assert enumerated_count("How many components does the platform have?", [Evidence(
        "The platform components comprise the policy engine, the policy administrator, and the enforcement point.",
        "n5")]).text.startswith("There are 3 components")  # type: ignore[union-attr]


def test_a_sentence_dividing_a_thing_into_named_parts_counts_them() -> None:
    """NIST SP 800-207's "These gaps can be categorized into immediate deployment (…), systemic gaps that affect
    maintenance or operations (…), and missing knowledge (…)." answers "Into how many categories …?": its verb
    names the categories, and the question asks no other kind."""
    divided = Evidence("These gaps can be categorized into immediate deployment (immediate or short term), systemic "
                       "gaps that affect maintenance or operations (short or midterm), and missing knowledge (areas "
                       "for future research).", "n1")
    answer = enumerated_count("Into how many categories does the survey sort the gaps it found, and what are they?",
                              [divided])
    assert answer is not None and answer.text.startswith("There are 3 categories: These gaps"), answer
    assert enumerated_count("How many vendors took part in the survey?", [divided]) is None  # not what it divides


def test_a_list_the_question_names_by_its_own_words_is_counted() -> None:
    """bench/data/doc_qa_dev2.json: "How many different kinds of partners make up the indirect channels …?" of a
    sentence whose list is "comprised primarily of" seven kinds, named by the question's "indirect channels"."""
    networks = _ev("Our cloud and license, and hardware indirect channel networks are comprised primarily of "
                   "resellers, system integrators/implementers, consultants, education providers, internet service "
                   "providers, network integrators and independent software vendors.")
    answer = enumerated_count("How many different kinds of partners make up the indirect channels Oracle uses to "
                              "sell its cloud, license and hardware offerings?", [networks])
    assert answer is not None and answer.text.startswith("There are 7 partners: "), answer
    # the question's words not said before the list: not the list asked for
    assert enumerated_count("How many kinds of suppliers build Oracle's servers?", [networks]) is None


def test_lists_that_include_are_to_or_stand_before_their_noun_are_counted() -> None:
    """bench/data/doc_qa_dev3.json asked these counts plainly and got "not found" (the factors, the goals) or the
    eleven sub-sections of Item 1 (the markets): the sentences name them all, after "include:", after "are to"
    and before their noun."""
    factors = _ev("Key competitive factors in each of the segments in which we currently compete and may compete in "
                  "the future include: total cost of ownership, performance, scalability, reliability, security, "
                  "functionality, efficiency, ease of use, speed to production and quality of technical support.")
    answer = enumerated_count("How many factors does Oracle name as key to competition in each of the segments "
                              "where it competes?", [factors])
    assert answer is not None and answer.text.startswith("There are 10 factors: "), answer
    goals = _ev("The goals of NCPS, which align with the overarching goals of zero trust, are to manage cyber risk, "
                "improve cyber protection, and empower partners to secure cyber space.")
    answer = enumerated_count("How many goals of the National Cybersecurity Protection System does the publication "
                              "say line up with those of zero trust?", [goals])
    assert answer is not None and answer.text.startswith("There are 3 goals: "), answer
    markets = _ev("The Company’s customers are primarily in the consumer, small and mid-sized business, education, "
                  "enterprise and government markets.")
    answer = enumerated_count("How many markets does Apple say its customers are primarily in?", [markets])
    # "small and mid-sized business" is one item
    assert answer is not None and answer.text.startswith("There are 5 markets: "), answer
    # a list before another noun, or one whose subject the question never says, is not the one asked for
    assert enumerated_count("How many customers does Apple have?", [markets]) is None
    assert enumerated_count("How many products does Oracle sell?", [factors]) is None


def test_a_stated_number_or_a_few_named_among_others_is_no_list_to_count() -> None:
    """SQuAD seed 7: "Approximately how many items are in the glass collection of the V&A?" was answered "There are 3
    items: Other items in the collection include …": the article states "over 6000 items", and "other items …
    include" names some of them."""
    stated = _ev("The glass collection covers 4000 years of glass making, and has over 6000 items from Africa, "
                 "Britain, Europe, America and Asia.")
    some = _ev("Other items in the collection include diamond dress ornaments, bracelet clasps once belonging to "
               "Marie Antoinette, and the Beauharnais emerald necklace.")
    for question in ("Approximately how many items are in the glass collection?", "How many items are in the glass "
                     "collection?"):
        assert enumerated_count(question, [stated, some]) is None, question
    assert enumerated_count("How many items are in the glass collection?", [some]) is None


def test_a_count_of_a_noun_no_list_knows_takes_a_sentence_saying_what_the_question_says_of_it() -> None:
    """"How many qualified doctors …?" is no list question ("doctors" is no kind of item), and a sentence counting
    Doctors of a television series while saying nothing of Kenya, 2001 or registration does not answer it; one
    counting the asked noun and saying what the question says of it does."""
    who = _ev("This included many old episodes of Doctor Who, mostly stories featuring the first two Doctors: "
              "William Hartnell and Patrick Troughton.")
    assert counted_sentence("How many qualified doctors were registered in Kenya in 2001?", [who]) is None
    blocks = _ev("The zero trust platform has three building blocks: the policy engine, the policy administrator "
                 "and the enforcement point.")
    answer = counted_sentence("How many building blocks does the zero trust platform have?", [blocks])
    assert answer is not None and answer.text == blocks.text
