// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ICaseOutcomeHook, IAgentWalletIndex, IERC8004Identity, IERC8004Reputation} from "./IERC8004.sol";

/// @title The court's voice in an ERC-8004 Reputation Registry.
/// @notice When a case ends, the court registry calls `recordOutcome` and this contract gives each
/// party that is an ERC-8004 agent one feedback entry: it is the feedback's clientAddress, so a
/// reader trusting the court asks `getSummary(agentId, [this], ...)`. Entries: tag1 "verdict" with
/// tag2 "won" (value 100), "lost" or "defaulted" (value 0); a dismissal is tag1 "dismissed" (0).
/// valueDecimals is 0 and the feedback URI names the case (`docket://cases/0x...`).
/// @dev A party's agent: the one it linked (`link`, for any ERC-8004 registry), else the agent
/// whose agent wallet it is, when the identity registry keeps that index (ours does). Each feedback
/// call gets bounded gas and its failure is caught and logged: a registry that reverts or refuses
/// (an owner who made this contract its operator) costs the party its entry, never the case its end.
contract CourtReputation is ICaseOutcomeHook {
    /// @notice Gas each feedback call to the reputation registry gets.
    /// @return The gas.
    uint256 public constant FEEDBACK_GAS = 250_000;
    /// @notice The feedback value of a won case (a lost, defaulted or dismissed one is 0).
    /// @return The value (0 decimals).
    int128 public constant WON = 100;

    /// @notice Only the court registry reports outcomes.
    error OnlyRegistry();
    /// @notice The caller is neither the agent's owner nor its agent wallet.
    /// @param caller The caller.
    /// @param agentId The agent.
    error NotAgentController(address caller, uint256 agentId);

    /// @notice A party named the agent the court's feedback on it goes to.
    /// @param party The party.
    /// @param agentId The agent.
    event AgentLinked(address indexed party, uint256 indexed agentId);
    /// @notice A party removed its link; feedback goes to its agent wallet's agent, if any.
    /// @param party The party.
    event AgentUnlinked(address indexed party);
    /// @notice The court gave a party's agent feedback for a case.
    /// @param caseAddr The case.
    /// @param party The party.
    /// @param agentId The party's agent.
    /// @param outcome "won", "lost", "defaulted" or "dismissed".
    event FeedbackPosted(address indexed caseAddr, address indexed party, uint256 indexed agentId, string outcome);
    /// @notice The reputation registry refused (or ran out of gas on) a party's feedback; the case ended anyway.
    /// @param caseAddr The case.
    /// @param party The party.
    /// @param agentId The party's agent.
    event FeedbackFailed(address indexed caseAddr, address indexed party, uint256 indexed agentId);

    /// @dev A party's ERC-8004 record as docket shows it, read in one call.
    struct Summary {
        uint64 count;
        int128 value;
        uint8 decimals;
    }

    struct AgentCard {
        address addr;
        uint256 agentId;
        address owner;
        address wallet;
        string agentURI;
        /// @dev Every verdict entry ("won" 100, "lost"/"defaulted" 0): the average is a win rate.
        Summary verdicts;
        uint64 won;
        uint64 lost;
        uint64 defaulted;
        uint64 dismissed;
    }

    /// @notice The court registry, the only caller of `recordOutcome`.
    /// @return The CourtRegistry.
    address public immutable courtRegistry;
    /// @notice The ERC-8004 Identity Registry parties' agents live in.
    /// @return The IdentityRegistry.
    address public immutable identityRegistry;
    /// @notice The ERC-8004 Reputation Registry the feedback goes to.
    /// @return The ReputationRegistry.
    address public immutable reputationRegistry;
    /// @notice The agent a party linked with `link` (0: none); it counts only while the party still
    /// controls the agent (see `agentOf`).
    /// @return The agent id.
    mapping(address => uint256) public linkedAgent;

    constructor(address courtRegistry_, address identityRegistry_, address reputationRegistry_) {
        courtRegistry = courtRegistry_;
        identityRegistry = identityRegistry_;
        reputationRegistry = reputationRegistry_;
    }

    /// @notice Names the ERC-8004 agent the court's feedback on the caller goes to; the caller must
    /// be its owner or its agent wallet.
    /// @param agentId The agent.
    function link(uint256 agentId) external {
        if (!_controls(msg.sender, agentId)) revert NotAgentController(msg.sender, agentId);
        linkedAgent[msg.sender] = agentId;
        emit AgentLinked(msg.sender, agentId);
    }

    /// @notice Removes the caller's link; the court's feedback then goes to the agent whose wallet
    /// the caller is, if any.
    function unlink() external {
        delete linkedAgent[msg.sender];
        emit AgentUnlinked(msg.sender);
    }

    /// @inheritdoc ICaseOutcomeHook
    function recordOutcome(address caseAddr, address a, address b, uint8 kind) external {
        if (msg.sender != courtRegistry) revert OnlyRegistry();
        string memory uri = string.concat("docket://cases/", _hex(caseAddr));
        if (kind == 2) {
            _post(caseAddr, a, 0, "dismissed", "", uri);
            _post(caseAddr, b, 0, "dismissed", "", uri);
        } else {
            _post(caseAddr, a, WON, "verdict", "won", uri);
            _post(caseAddr, b, 0, "verdict", kind == 1 ? "defaulted" : "lost", uri);
        }
    }

    /// @notice The ERC-8004 agent the court's feedback on `party` goes to; 0 for none: the linked
    /// agent while the party controls it, else the agent whose wallet the party is.
    /// @param party The party.
    /// @return The agent id (0: none).
    function agentOf(address party) public view returns (uint256) {
        uint256 id = linkedAgent[party];
        if (id != 0 && _controls(party, id)) return id;
        try IAgentWalletIndex(identityRegistry).agentIdOf(party) returns (uint256 found) {
            return found;
        } catch {
            return 0;
        }
    }

    /// @notice Each address's agent (agentId 0: none) with its identity and the court's feedback.
    /// @param who The addresses.
    /// @return cards One card each, in order: agent, owner, wallet, URI, the verdicts' summary and counts.
    function describe(address[] calldata who) external view returns (AgentCard[] memory cards) {
        cards = new AgentCard[](who.length);
        for (uint256 i = 0; i < who.length; i++) {
            cards[i] = _card(who[i], agentOf(who[i]));
        }
    }

    // --------------------------------------------------------------- internal

    function _post(
        address caseAddr,
        address party,
        int128 value,
        string memory tag1,
        string memory tag2,
        string memory uri
    ) private {
        uint256 agentId = agentOf(party);
        if (agentId == 0) return;
        try IERC8004Reputation(reputationRegistry).giveFeedback{gas: FEEDBACK_GAS}(
            agentId, value, 0, tag1, tag2, "", uri, bytes32(0)
        ) {
            emit FeedbackPosted(caseAddr, party, agentId, bytes(tag2).length > 0 ? tag2 : tag1);
        } catch {
            emit FeedbackFailed(caseAddr, party, agentId);
        }
    }

    function _card(address who, uint256 agentId) private view returns (AgentCard memory c) {
        c.addr = who;
        if (agentId == 0) return c;
        c.agentId = agentId;
        IERC8004Identity id = IERC8004Identity(identityRegistry);
        try id.ownerOf(agentId) returns (address o) {
            c.owner = o;
        } catch {}
        try id.getAgentWallet(agentId) returns (address w) {
            c.wallet = w;
        } catch {}
        try id.tokenURI(agentId) returns (string memory u) {
            c.agentURI = u;
        } catch {}
        c.verdicts = _summary(agentId, "verdict", "");
        c.won = _summary(agentId, "verdict", "won").count;
        c.lost = _summary(agentId, "verdict", "lost").count;
        c.defaulted = _summary(agentId, "verdict", "defaulted").count;
        c.dismissed = _summary(agentId, "dismissed", "").count;
    }

    function _summary(uint256 agentId, string memory tag1, string memory tag2) private view returns (Summary memory s) {
        address[] memory court = new address[](1);
        court[0] = address(this);
        try IERC8004Reputation(reputationRegistry).getSummary(agentId, court, tag1, tag2) returns (
            uint64 count, int128 value, uint8 decimals
        ) {
            s = Summary(count, value, decimals);
        } catch {}
    }

    function _controls(address who, uint256 agentId) private view returns (bool) {
        IERC8004Identity id = IERC8004Identity(identityRegistry);
        try id.ownerOf(agentId) returns (address o) {
            if (o == who) return true;
        } catch {
            return false;
        }
        try id.getAgentWallet(agentId) returns (address w) {
            return w == who;
        } catch {
            return false;
        }
    }

    /// @dev Lower-case 0x-hex of an address.
    function _hex(address a) private pure returns (string memory) {
        bytes memory out = new bytes(42);
        bytes16 digits = "0123456789abcdef";
        out[0] = "0";
        out[1] = "x";
        uint160 v = uint160(a);
        for (uint256 i = 41; i > 1; i--) {
            out[i] = digits[v & 0xf];
            v >>= 4;
        }
        return string(out);
    }
}
