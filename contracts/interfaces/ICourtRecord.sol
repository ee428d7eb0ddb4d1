// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Who is on the court's record for a case: what the factory, the arbitrator, the registry
/// and the court's ERC-8004 reporter tell one another so that a party is on record only for a case
/// it (or the arbitrable acting for it) agreed to.

/// @notice The arbitrator's consents: a party lets an arbitrable name it in disputes on its record.
interface IArbitratorConsent {
    /// @notice Whether `party` let `arbitrable` name it in disputes that go on its record.
    /// @param party The party.
    /// @param arbitrable The arbitrable.
    /// @return True when it did (and has not withdrawn it).
    function consented(address party, address arbitrable) external view returns (bool);
}

/// @notice The factory's answer to whether a party of a case is on record (CaseFactory).
interface ICaseRecord {
    /// @notice Whether the case's outcome goes on `party`'s record: always for a case its plaintiff
    /// filed; for a dispute filed through the arbitrator, only for a party that is the arbitrable
    /// or had consented to it when the dispute was filed.
    /// @param caseAddr The case.
    /// @param party A party of the case.
    /// @return True when on record.
    function onRecord(address caseAddr, address party) external view returns (bool);
}

/// @notice What the factory tells the court's outcome hook when a case is filed (CourtReputation):
/// the agents that case's feedback will go to are fixed then.
interface ICaseFiledHook {
    /// @notice A case was filed; only the factory calls it.
    /// @param caseAddr The case.
    /// @param plaintiff The plaintiff.
    /// @param defendant The defendant.
    /// @param plaintiffOnRecord Whether the case goes on the plaintiff's record.
    /// @param defendantOnRecord Whether the case goes on the defendant's record.
    function caseFiled(
        address caseAddr,
        address plaintiff,
        address defendant,
        bool plaintiffOnRecord,
        bool defendantOnRecord
    ) external;
}
